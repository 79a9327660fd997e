// A test peer for the machine translation service (issue 31), not part of the product: it speaks
// LibreTranslate's protocol (POST /translate, { q, source, target, format, api_key } →
// { translatedText }) and "translates" deterministically — each text gets the target language in
// brackets before it ("[tr] Wie lange …"; in HTML inside its first element, tags untouched) — so
// a test can tell a machine's text from a person's. The API tests start it in their process;
// e2e/serve.mjs starts it beside a server given TRANSLATION_PEER=true.
import http from "node:http";

/** The fake translation of one text: the target in brackets before it, tags kept as they are. */
export function fakeTranslation(text, target) {
  if (!text.startsWith("<")) return `[${target}] ${text}`;
  return text.replace(/^(<[^>]+>)/, `$1[${target}] `);
}

/** Starts the peer on 127.0.0.1:`port` (0: a free one); `apiKey`, when given, must come along. */
export async function startTranslationPeer(port = 0, apiKey = null) {
  const peer = { url: "", received: [], failWith: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const answer = (status, body) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST" || req.url !== "/translate") return answer(404, { error: "Not Found" });
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return answer(400, { error: "Invalid JSON" });
      }
      peer.received.push(body);
      if (peer.failWith) return answer(peer.failWith, { error: "Translation failed" });
      if (apiKey !== null && body.api_key !== apiKey) return answer(403, { error: "Invalid API key" });
      const { q, source, target } = body;
      if (source !== "de" || typeof target !== "string") return answer(400, { error: "Unsupported language pair" });
      const texts = Array.isArray(q) ? q : [q];
      if (!texts.every((t) => typeof t === "string")) return answer(400, { error: "Invalid request: q" });
      const translated = texts.map((t) => fakeTranslation(t, target));
      return answer(200, { translatedText: Array.isArray(q) ? translated : translated[0] });
    });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  peer.url = `http://127.0.0.1:${server.address().port}`;
  peer.close = () => new Promise((resolve) => server.close(() => resolve()));
  return peer;
}
