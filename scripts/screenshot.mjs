#!/usr/bin/env node
/**
 * Screenshot of a console route as a demo user, for looking at what was built:
 *   node scripts/screenshot.mjs <user> <route> <out.png> [width]
 * Expects a server on http://localhost:${PORT:-3300}; FULL=1 for a full-page shot.
 */
import chromium from '@sparticuz/chromium';
import { chromium as pw } from 'playwright-core';
const [,, user, path, out, width] = process.argv;
const args = chromium.args.filter(a => a !== '--single-process');
const b = await pw.launch({ executablePath: await chromium.executablePath(), args, headless: true });
const ctx = await b.newContext({ baseURL: `http://localhost:${process.env.PORT ?? 3300}`, viewport: { width: Number(width ?? 1440), height: 900 } });
const p = await ctx.newPage();
await p.goto('/#/login?redirect=' + encodeURIComponent(path));
await p.getByLabel('Username').fill(user); await p.getByLabel('Password').fill(user);
await p.getByRole('button', { name: 'Log In' }).click();
await p.waitForURL(u => !u.hash.startsWith('#/login'));
await p.waitForTimeout(2500);
await p.screenshot({ path: out, fullPage: process.env.FULL === '1' });
await b.close();
