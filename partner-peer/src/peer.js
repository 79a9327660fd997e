// TEST PEER — not part of CareCampus. A reference partner provider of external courses that
// implements the partner side of docs/partner-contract.md (docs/partner-openapi.yaml), so the
// tests and the opt-in demo (PARTNER_PEER=true) show the whole flow without an outside service.
// Everything lives in memory and is gone when it stops.
import crypto from "node:crypto";
import http from "node:http";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";

/** The demo catalogue: courses assigned to CareCampus training keys (the demo content's). */
export const DEMO_COURSES = [
  {
    id: "kinaesthetics-basics",
    training: "sturzprophylaxe-grundlagen",
    name: "Kinästhetik im Pflegealltag: Bewegung sanft unterstützen",
    colour: "#0f766e",
    pages: [
      "Kinästhetik beschreibt, wie Menschen sich bewegen. Wer die eigene Bewegung bewusst wahrnimmt, kann andere besser unterstützen.",
      "Statt zu heben: führen. Kleine Gewichtsverlagerungen helfen beim Aufstehen mehr als Kraft.",
      "Fragen Sie, warten Sie, lassen Sie die Person mithelfen. So bleiben Fähigkeiten erhalten.",
    ],
  },
  {
    id: "fall-risk-check",
    training: "sturzprophylaxe-grundlagen",
    name: "Sturzrisiko erkennen",
    colour: "#b45309",
    pages: [
      "Stolperfallen, Medikamente, Schwindel und schlechtes Sehen erhöhen das Sturzrisiko.",
      "Ein kurzer Check beim Einzug und nach jeder Veränderung hilft, Stürze zu vermeiden.",
    ],
  },
  {
    id: "dementia-communication",
    training: "demenz-grundlagen",
    name: "Kommunikation mit Menschen mit Demenz",
    colour: "#6d28d9",
    pages: [
      "Kurze Sätze, eine Frage nach der anderen, Blickkontakt auf Augenhöhe.",
      "Gefühle ernst nehmen statt korrigieren: Validation schafft Vertrauen.",
      "Rituale und Biografie geben Halt im Alltag.",
    ],
  },
];

const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** The standard PDF font writes WinAnsi only: other letters lose their accents or become '?'. */
const winAnsi = (s) =>
  s
    .normalize("NFC")
    .replace(/[^\u0020-\u007e\u00a0-\u00ff–]/g, (c) => c.normalize("NFD").replace(/[\u0300-\u036f]/g, "") || "?")
    .replace(/[^\u0020-\u007e\u00a0-\u00ff–]/g, "?");

async function certificatePdf({ displayName, course, issuedAt, id }) {
  const doc = await PDFDocument.create();
  doc.setTitle(`Teilnahmebescheinigung ${course.name}`);
  doc.setAuthor("Partner Academy (test peer)");
  doc.setCreationDate(issuedAt);
  const page = doc.addPage([595.28, 841.89]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const line = (text, y, size, f = font) => {
    const t = winAnsi(text);
    const width = f.widthOfTextAtSize(t, size);
    page.drawText(t, { x: Math.max(40, (page.getWidth() - width) / 2), y, size, font: f, color: rgb(0.1, 0.2, 0.25) });
  };
  line("Partner Academy", 740, 16, bold);
  line("Teilnahmebescheinigung", 660, 28, bold);
  line(displayName, 580, 22);
  line("hat den Online-Kurs", 540, 14);
  line(course.name, 505, 16, bold);
  line(`abgeschlossen am ${issuedAt.toISOString().slice(0, 10)}`, 465, 14);
  line(`Bescheinigung ${id}`, 80, 10);
  return Buffer.from(await doc.save());
}

function iconSvg(course) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${course.colour}"/><path d="M18 44V20h20a8 8 0 0 1 0 16H26" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"/></svg>`;
}

/**
 * Starts the peer. Options: port (0: a free one), host, clientId/clientSecret (Basic auth of
 * CareCampus), tokenSeconds (launch token lifetime), courses (the catalogue). The returned
 * `fault` lets a test make the API or the icons misbehave; `calls` records every API and icon request.
 */
export async function startPartnerPeer(options = {}) {
  const clientId = options.clientId ?? "carecampus";
  const clientSecret = options.clientSecret ?? "peer-secret";
  const courses = options.courses ?? DEMO_COURSES;
  const tokens = new Map(); // token → { userRef, displayName, validUntil }
  const sessions = new Map(); // session → { userRef, displayName, returnUrl, until }
  const progress = new Map(); // `${userRef} ${courseId}` → { count, completedAt, certificateId }
  const certificates = new Map(); // id → { userRef, courseId, filename, pdf, issuedAt }
  const calls = [];
  /**
   * What a test makes the API do: fail the next N calls with 503, never answer, or answer
   * garbage; name another icon address in the course list, or make the own icons misbehave.
   */
  const fault = { failNext: 0, hang: false, garbage: null, iconUrl: null, icon: null };
  /** Bytes of an endless ("huge") icon written before its reader hung up. */
  const iconBytes = [];
  const now = options.now ?? (() => new Date());
  let publicUrl = "";

  const send = (res, status, body, type = "application/json") => {
    res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
    res.end(type === "application/json" ? JSON.stringify(body) : body);
  };
  const html = (res, status, title, body) =>
    send(
      res,
      status,
      `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)} – Partner Academy</title><style>body{font-family:system-ui,sans-serif;margin:0;background:#f4f6f7;color:#16262e}main{max-width:40rem;margin:0 auto;padding:1.5rem}header{background:#16262e;color:#fff;padding:.75rem 1.5rem;font-weight:600}button,a.button{display:inline-block;font:inherit;font-size:1.1rem;padding:.8rem 1.4rem;border:0;border-radius:.5rem;background:#0f5f59;color:#fff;text-decoration:none;cursor:pointer;min-height:48px}p{line-height:1.6;font-size:1.1rem}</style></head><body><header>Partner Academy · Testpartner</header><main>${body}</main></body></html>`,
      "text/html; charset=utf-8",
    );
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      let data = "";
      req.on("data", (c) => {
        data += c;
        if (data.length > 100_000) req.destroy();
      });
      req.on("end", () => resolve(data));
      req.on("error", reject);
    });
  const authorised = (req) => {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    const given = String(req.headers.authorization ?? "");
    return given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  };
  const findCourse = (id) => courses.find((c) => c.id === id);

  async function api(req, res, url) {
    calls.push(`${req.method} ${url.pathname}${url.search}`);
    // A partner that never answers: the call ends when the client gives up and closes it.
    if (fault.hang) return new Promise((r) => res.on("close", r));
    if (fault.failNext > 0) {
      fault.failNext -= 1;
      return send(res, 503, { error: "busy" });
    }
    if (fault.garbage === "html") return send(res, 200, "<html>maintenance</html>", "text/html");
    if (!authorised(req)) return send(res, 401, { error: "unknown client" });
    const garbage = fault.garbage === "shape";
    if (req.method === "GET" && url.pathname === "/v1/courses") {
      const training = url.searchParams.get("training") ?? "";
      if (garbage) return send(res, 200, { courses: [{ id: 7, title: "no name" }] });
      return send(res, 200, {
        courses: courses
          .filter((c) => c.training === training)
          .map((c) => ({
            id: c.id,
            name: c.name,
            icon_url: fault.iconUrl ?? `${publicUrl}/icons/${c.id}.svg`,
            launch_url: `${publicUrl}/launch/${c.id}`,
          })),
      });
    }
    if (req.method === "POST" && url.pathname === "/v1/launch-tokens") {
      let body;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return send(res, 400, { error: "not JSON" });
      }
      if (typeof body?.user_ref !== "string" || typeof body?.display_name !== "string")
        return send(res, 400, { error: "user_ref and display_name are required" });
      if (garbage) return send(res, 201, { token: 42 });
      const token = crypto.randomBytes(24).toString("base64url");
      const validUntil = new Date(now().getTime() + (options.tokenSeconds ?? 120) * 1000);
      tokens.set(token, { userRef: body.user_ref, displayName: body.display_name, validUntil });
      return send(res, 201, { token, valid_until: validUntil.toISOString() });
    }
    if (req.method === "GET" && url.pathname === "/v1/progress") {
      const training = url.searchParams.get("training") ?? "";
      const only = url.searchParams.get("user_ref");
      const ids = new Set(courses.filter((c) => c.training === training).map((c) => c.id));
      const rows = [];
      for (const [key, p] of progress) {
        const [userRef, courseId] = key.split(" ");
        if (!ids.has(courseId) || (only && userRef !== only)) continue;
        const course = findCourse(courseId);
        rows.push({
          user_ref: userRef,
          course_id: courseId,
          count: garbage ? course.pages.length + 5 : p.count,
          total: course.pages.length,
          completed_at: p.completedAt ? p.completedAt.toISOString() : null,
          certificate_id: p.certificateId,
        });
      }
      return send(res, 200, { progress: rows });
    }
    const cert = /^\/v1\/certificates\/([A-Za-z0-9_-]{1,100})$/.exec(url.pathname);
    if (req.method === "GET" && cert) {
      const c = certificates.get(cert[1]);
      if (!c) return send(res, 404, { error: "no such certificate" });
      return send(res, 200, {
        certificate_id: cert[1],
        user_ref: c.userRef,
        course_id: c.courseId,
        filename: c.filename,
        content:
          fault.garbage === "pdf" ? Buffer.from("not a pdf at all").toString("base64") : c.pdf.toString("base64"),
        issued_at: c.issuedAt.toISOString(),
      });
    }
    return send(res, 404, { error: "unknown call" });
  }

  async function learner(req, res, url) {
    const icon = /^\/icons\/([a-z0-9-]+)\.svg$/.exec(url.pathname);
    if (req.method === "GET" && icon) {
      calls.push(`${req.method} ${url.pathname}`);
      if (fault.icon && typeof fault.icon === "object") {
        res.writeHead(302, { location: fault.icon.redirect });
        return res.end();
      }
      if (fault.icon === "slow") {
        // The headers, then nothing until the reader gives up.
        res.writeHead(200, { "content-type": "image/svg+xml" });
        res.flushHeaders();
        return new Promise((r) => res.on("close", r));
      }
      if (fault.icon === "huge") return endlessIcon(res);
      const course = findCourse(icon[1]);
      return course ? send(res, 200, iconSvg(course), "image/svg+xml") : send(res, 404, "", "text/plain");
    }
    const launch = /^\/launch\/([a-z0-9-]+)$/.exec(url.pathname);
    if (req.method === "GET" && launch) {
      const course = findCourse(launch[1]);
      const grant = tokens.get(url.searchParams.get("token") ?? "");
      if (!course) return html(res, 404, "Unbekannter Kurs", "<h1>Diesen Kurs gibt es nicht.</h1>");
      if (!grant || grant.validUntil <= now())
        return html(
          res,
          401,
          "Link abgelaufen",
          "<h1>Dieser Startlink ist abgelaufen.</h1><p>Bitte starten Sie den Kurs erneut aus CareCampus.</p>",
        );
      const returnUrl = url.searchParams.get("return_url") ?? "";
      const session = crypto.randomBytes(18).toString("base64url");
      sessions.set(session, {
        userRef: grant.userRef,
        displayName: grant.displayName,
        returnUrl: /^https?:\/\//.test(returnUrl) ? returnUrl : "",
        until: new Date(now().getTime() + 8 * 3600_000),
      });
      res.writeHead(303, { location: `/s/${session}/${course.id}/1` });
      return res.end();
    }
    const step = /^\/s\/([A-Za-z0-9_-]+)\/([a-z0-9-]+)\/(\d+|done)$/.exec(url.pathname);
    if (!step) return html(res, 404, "Nicht gefunden", "<h1>Seite nicht gefunden</h1>");
    const session = sessions.get(step[1]);
    const course = findCourse(step[2]);
    if (!session || session.until <= now() || !course)
      return html(res, 401, "Sitzung abgelaufen", "<h1>Ihre Sitzung ist abgelaufen.</h1>");
    const back = session.returnUrl
      ? `<p><a class="button" href="${esc(session.returnUrl)}">Zurück zu CareCampus</a></p>`
      : "";
    if (step[3] === "done")
      return html(
        res,
        200,
        "Kurs abgeschlossen",
        `<h1>Kurs abgeschlossen</h1><p>${esc(course.name)}: Ihre Bescheinigung liegt für CareCampus bereit.</p>${back}`,
      );
    const n = Number(step[3]);
    const total = course.pages.length;
    if (n < 1 || n > total) return html(res, 404, "Nicht gefunden", "<h1>Seite nicht gefunden</h1>");
    const key = `${session.userRef} ${course.id}`;
    if (req.method === "POST") {
      const p = progress.get(key) ?? { count: 0, completedAt: null, certificateId: null };
      p.count = Math.max(p.count, n);
      if (n === total && !p.completedAt) {
        p.completedAt = now();
        p.certificateId = `pc-${crypto.randomBytes(8).toString("hex")}`;
        const pdf = await certificatePdf({
          displayName: session.displayName,
          course,
          issuedAt: p.completedAt,
          id: p.certificateId,
        });
        certificates.set(p.certificateId, {
          userRef: session.userRef,
          courseId: course.id,
          filename: `Bescheinigung-${course.id}.pdf`,
          pdf,
          issuedAt: p.completedAt,
        });
      }
      progress.set(key, p);
      res.writeHead(303, {
        location: n === total ? `/s/${step[1]}/${course.id}/done` : `/s/${step[1]}/${course.id}/${n + 1}`,
      });
      return res.end();
    }
    const last = n === total;
    return html(
      res,
      200,
      course.name,
      `<p>${esc(course.name)}</p><h1>Seite ${n} von ${total}</h1><p>${esc(course.pages[n - 1])}</p><form method="post"><button type="submit">${last ? "Kurs abschließen" : "Weiter"}</button></form>`,
    );
  }

  /** An image that never ends, written as fast as the reader takes it; counts what it took. */
  function endlessIcon(res) {
    res.writeHead(200, { "content-type": "image/png" });
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    let written = 0;
    return new Promise((resolve) => {
      const pump = () => {
        while (!res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return res.once("drain", pump);
        }
      };
      res.on("close", () => {
        iconBytes.push(written);
        resolve();
      });
      pump();
    });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://peer.invalid");
    const work = url.pathname.startsWith("/v1/") ? api(req, res, url) : learner(req, res, url);
    work.catch((err) => {
      if (!res.headersSent) send(res, 500, { error: String(err) });
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const address = server.address();
  publicUrl = options.publicUrl ?? `http://${options.host ?? "127.0.0.1"}:${address.port}`;
  return {
    url: publicUrl,
    clientId,
    clientSecret,
    calls,
    fault,
    iconBytes,
    /** Marks a learner's course complete without clicking (API tests). */
    async complete(userRef, displayName, courseId) {
      const course = findCourse(courseId);
      const completedAt = now();
      const certificateId = `pc-${crypto.randomBytes(8).toString("hex")}`;
      progress.set(`${userRef} ${courseId}`, { count: course.pages.length, completedAt, certificateId });
      const pdf = await certificatePdf({ displayName, course, issuedAt: completedAt, id: certificateId });
      certificates.set(certificateId, {
        userRef,
        courseId,
        filename: `Bescheinigung-${courseId}.pdf`,
        pdf,
        issuedAt: completedAt,
      });
      return certificateId;
    },
    /** Records pages done without a certificate. */
    setProgress(userRef, courseId, count) {
      progress.set(`${userRef} ${courseId}`, { count, completedAt: null, certificateId: null });
    },
    tokenOf: (token) => tokens.get(token),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
