import type { Db } from "../../apps/server/src/db/client";
import { facilities, wikiPages, wikiRevisions, wikiTopics } from "../../apps/server/src/db/schema";
import { hashPassword } from "../../apps/server/src/security/passwords";
import { insertUser } from "../../apps/server/src/users/service";
import { reindexPage } from "../../apps/server/src/wiki/service";
import { BENCH_PASSWORD } from "./dataset";
import { startServer, stopServer } from "./server";

const PAGES = Number(process.env.BENCH_WIKI_PAGES ?? 1000);
const LOGIN = "wiki-bench";

/** Words of a care facility's handbook, so the German stemmer has real work. */
const WORDS = (
  "Händedesinfektion Hygieneplan Bewohnerinnen Bewohner Pflegekräfte Wohnbereich Dokumentation Medikamente " +
  "Betäubungsmittel Sturzrisiko Mobilität Ernährung Flüssigkeit Dekubitus Lagerung Wundversorgung Schutzkleidung " +
  "Handschuhe Mundschutz Flächendesinfektion Reinigung Küche Lebensmittel Temperatur Kühlschrank Alarmplan Brandschutz " +
  "Feuerlöscher Fluchtweg Sammelplatz Evakuierung Notruf Erste Hilfe Wiederbelebung Defibrillator Schweigepflicht " +
  "Datenschutz Einwilligung Angehörige Demenz Biografie Validation Unruhe Begleitung Pflegeplanung Übergabe Dienstplan " +
  "Verantwortung Wohnbereichsleitung Pflegedienstleitung Qualitätsmanagement Verfahrensanweisung Schulung Nachweis " +
  "regelmäßig sofort mindestens täglich wöchentlich immer dokumentieren melden prüfen desinfizieren reinigen lagern"
).split(" ");

function text(seed: number, words: number): string {
  let x = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(WORDS[x % WORDS.length] as string);
    if (i % 12 === 11) out.push(".\n\n");
  }
  return out.join(" ");
}

/** PAGES released common pages of about 400 words in 20 topics, indexed like a release does. */
export async function generateWikiDataset(db: Db): Promise<void> {
  const hash = await hashPassword(BENCH_PASSWORD);
  const [facility] = await db.insert(facilities).values({ name: "Wiki-Haus" }).returning();
  await insertUser(
    db,
    {
      login: LOGIN,
      name: "Wiki",
      surname: "Bench",
      password: BENCH_PASSWORD,
      roles: ["employee"],
      facilityId: facility?.id ?? null,
    },
    hash,
  );
  const topics = [];
  for (let t = 0; t < 20; t++) {
    const [row] = await db
      .insert(wikiTopics)
      .values({ key: `thema-${t}`, title: `Thema ${t}`, position: t })
      .returning();
    topics.push(row?.id ?? 0);
  }
  const now = new Date();
  for (let p = 0; p < PAGES; p++) {
    const [page] = await db
      .insert(wikiPages)
      .values({
        topicId: topics[p % topics.length] as number,
        slug: `seite-${p}`,
        latestRevision: 1,
        releasedRevision: 1,
        releasedAt: now,
        releasedBy: "Bench",
      })
      .returning();
    if (!page) continue;
    await db.insert(wikiRevisions).values({
      pageId: page.id,
      number: 1,
      content: { de: { title: `${text(p, 3)} ${p}`, markdown: `## Zweck\n\n${text(p + 7, 400)}` } },
    });
    await reindexPage(db, page.id);
  }
}

/** Times GET /api/wiki/search on the dataset: sequential requests, several queries, server timing too. */
export async function benchWikiSearch(label: string, port: number, env: Record<string, string>): Promise<void> {
  const server = await startServer(port, env);
  try {
    const base = `http://127.0.0.1:${port}`;
    const res = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: LOGIN, password: BENCH_PASSWORD }),
    });
    const { token } = (await res.json()) as { token: string };
    const queries = [
      "Händedesinfektion",
      "Hände desinfizieren",
      "Brandschutz Sammelplatz",
      "Demenz Begleitung Angehörige",
      "Kühlschrank Temperatur täglich",
    ];
    const times: number[] = [];
    const server: number[] = [];
    let hits = 0;
    for (let round = 0; round < 10; round++) {
      for (const q of queries) {
        const started = performance.now();
        const r = await fetch(`${base}/api/wiki/search?q=${encodeURIComponent(q)}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const body = (await r.json()) as { hits: unknown[]; took_ms: number };
        times.push(performance.now() - started);
        server.push(body.took_ms);
        hits += body.hits.length;
      }
    }
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
    const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1);
    console.log(
      `${label}: wiki search over ${PAGES} pages: ${times.length} searches, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms (server ${mean(server)} ms mean), ${(hits / times.length).toFixed(1)} hits each`,
    );
  } finally {
    await stopServer(server);
  }
}
