/**
 * Summarises a V8 CPU profile (node --cpu-prof; `BENCH_CPU_PROF=dir npm run bench` writes the
 * server's): where the time went by package and by function, self and inclusive, in % of the
 * samples. `node --import tsx bench/src/profile-summary.ts FILE.cpuprofile [top]`.
 */
import fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary.ts FILE.cpuprofile [top]");
const top = Number(topArg ?? 40);
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const hits = new Map<number, number>();
for (const s of profile.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
const total = profile.samples.length;

/** node_modules/<pkg> (scoped too), the app's bundle, or V8's own entries. */
function where(url: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1] as string;
  if (url.includes("dist/main.mjs")) return "carecampus (bundle)";
  if (url.startsWith("node:")) return "node core";
  return url === "" ? "(v8)" : url.replace(/^file:\/\//, "");
}
const label = (n: ProfileNode) =>
  `${n.callFrame.functionName || "(anonymous)"} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const selfByPkg = new Map<string, number>();
const selfByFn = new Map<string, number>();
const inclByFn = new Map<string, number>();
for (const [id, count] of hits) {
  const node = byId.get(id) as ProfileNode;
  const pkg = where(node.callFrame.url) || node.callFrame.functionName;
  selfByPkg.set(pkg, (selfByPkg.get(pkg) ?? 0) + count);
  selfByFn.set(label(node), (selfByFn.get(label(node)) ?? 0) + count);
  // Inclusive: every distinct function on the stack of the sample.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const l = label(byId.get(at) as ProfileNode);
    if (!seen.has(l)) {
      seen.add(l);
      inclByFn.set(l, (inclByFn.get(l) ?? 0) + count);
    }
  }
}

const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
const print = (title: string, map: Map<string, number>, n: number) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${pct(v)}  ${k}`);
};
console.log(`${total} samples`);
print("self time by package", selfByPkg, 25);
print("self time by function", selfByFn, top);
print("inclusive time by function", inclByFn, top);
