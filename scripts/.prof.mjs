import chromium from '@sparticuz/chromium';
import { chromium as pw } from 'playwright-core';
import { chromiumLaunch } from '../e2e/chromium-args.ts';
const b = await pw.launch({ ...(await chromiumLaunch()), headless: true });
const token = (await (await fetch('http://localhost:3300/api/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin' }) })).json()).accessToken.token;
const shared = process.env.SHARED ? await b.newContext({ baseURL: 'http://localhost:3300', viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' }) : null;
for (const route of (process.argv[2] ?? '/account/list').split(',')) for (let i = 0; i < 4; i++) {
  const ctx = shared ?? await b.newContext({ baseURL: 'http://localhost:3300', viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  const p = await ctx.newPage();
  const cdp = await ctx.newCDPSession(p);
  await cdp.send('Performance.enable');
  await p.goto('/api/v1/health');
  await p.evaluate((t) => localStorage.setItem('fleet.token', t), token);
  const t0 = Date.now();
  await p.goto(`/#${route}`);
  await p.waitForFunction(() => document.querySelector('main, .ant-layout-content') && !document.querySelector('.ant-spin-spinning, .ant-skeleton, [aria-busy="true"]'), undefined, { timeout: 30000 });
  await p.waitForTimeout(300);
  const m = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((x) => [x.name, x.value]));
  console.log(route, `wall ${Date.now() - t0} ms`, ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'].map((k) => `${k.replace('Duration', '')} ${(m[k] * 1000).toFixed(0)}`).join(' '), `nodes ${m.Nodes} layouts ${m.LayoutCount} styles ${m.RecalcStyleCount}`);
  if (shared) await p.close(); else await ctx.close();
}
await b.close();
