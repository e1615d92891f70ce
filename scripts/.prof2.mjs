import { chromium as pw } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { chromiumLaunch } from '../e2e/chromium-args.ts';
const b = await pw.launch({ ...(await chromiumLaunch()), headless: true });
const token = (await (await fetch('http://localhost:3300/api/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin' }) })).json()).accessToken.token;
const route = process.argv[2];
const ctx = await b.newContext({ baseURL: 'http://localhost:3300', viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
const p = await ctx.newPage();
await p.goto('/api/v1/health');
await p.evaluate((t) => localStorage.setItem('fleet.token', t), token);
const cdp = await ctx.newCDPSession(p);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await p.goto(`/#${route}`);
await p.waitForFunction(() => document.querySelector('main, .ant-layout-content') && !document.querySelector('.ant-spin-spinning, .ant-skeleton, [aria-busy="true"]'), undefined, { timeout: 30000 });
await p.waitForTimeout(300);
const { profile } = await cdp.send('Profiler.stop');
writeFileSync('/tmp/exp/prof.cpuprofile', JSON.stringify(profile));
// self time by function and by url
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
const fn = new Map(), url = new Map();
for (const [id, t] of self) {
  const n = byId.get(id); const cf = n.callFrame;
  const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}:${cf.lineNumber}`;
  fn.set(key, (fn.get(key) ?? 0) + t);
  const u = cf.url.split('/').pop() || cf.functionName;
  url.set(u, (url.get(u) ?? 0) + t);
}
const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${(v / 1000).toFixed(0).padStart(6)} ms ${k}`).join('\n');
console.log('--- by url\n' + top(url, 15));
console.log('--- by function\n' + top(fn, 30));
await b.close();
