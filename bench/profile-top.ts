import fs from 'node:fs';

/** Prints the functions with the most self time in a .cpuprofile (node --cpu-prof). */
const file = process.argv[2];
const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[] };
const self = new Map<number, number>();
prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const byFn = new Map<string, number>();
let total = 0;
for (const n of prof.nodes) {
  const t = self.get(n.id) ?? 0;
  total += t;
  const url = n.callFrame.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*\/main\//, '');
  const key = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber}`;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
}
const top = [...byFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 40));
for (const [k, v] of top) console.log(`${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
// by package
const byPkg = new Map<string, number>();
for (const n of prof.nodes) {
  const t = self.get(n.id) ?? 0;
  const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(n.callFrame.url);
  const k = m ? m[1] : n.callFrame.url.includes('/src/') ? 'service src' : n.callFrame.url ? 'other' : n.callFrame.functionName || '(native)';
  byPkg.set(k, (byPkg.get(k) ?? 0) + t);
}
console.log('\nby package:');
for (const [k, v] of [...byPkg.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
