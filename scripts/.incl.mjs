import { readFileSync } from 'node:fs';
const profile = JSON.parse(readFileSync('/tmp/exp/prof.cpuprofile', 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// inclusive per function name, counting each sample once per distinct name on its stack
const incl = new Map();
for (const [id, t] of self) {
  const names = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const cf = byId.get(cur).callFrame;
    names.add(`${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}`);
  }
  for (const n of names) incl.set(n, (incl.get(n) ?? 0) + t);
}
const comp = [...incl].filter(([k]) => /^[A-Z]/.test(k) || /^use/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 45);
console.log(comp.map(([k, v]) => `${(v / 1000).toFixed(0).padStart(6)} ms ${k}`).join('\n'));
