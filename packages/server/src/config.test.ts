import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'fleet-config-'));

describe('loadConfig (DESIGN §4)', () => {
  it('generates JWT_SECRET and DATA_KEY on first embedded start, keeps them (mode 0600), and reuses them', () => {
    const dir = freshDir();
    const first = loadConfig({ DATA_DIR: dir });
    const file = join(dir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.dataKey).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(readFileSync(file, 'utf8')).jwtSecret).toBe(first.jwtSecret);
    const second = loadConfig({ DATA_DIR: dir });
    expect([second.jwtSecret, second.dataKey]).toEqual([first.jwtSecret, first.dataKey]);
    expect(first).toMatchObject({ port: 3000, seed: 'demo', role: 'all', databaseUrl: undefined });
  });

  it('requires both secrets with DATABASE_URL, naming the missing ones', () => {
    const env = { DATA_DIR: freshDir(), DATABASE_URL: 'postgres://x@db/fleet' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/JWT_SECRET and DATA_KEY must be set when DATABASE_URL is set/);
    expect(() => loadConfig({ ...env, JWT_SECRET: 's' })).toThrow(/^DATA_KEY must be set/);
    const ok = loadConfig({ ...env, JWT_SECRET: 's', DATA_KEY: 'ab'.repeat(32) });
    expect(ok.seed).toBe('none');
  });

  it('refuses malformed values with a clear message', () => {
    const dir = freshDir();
    expect(() => loadConfig({ DATA_DIR: dir, PORT: 'eighty' })).toThrow(/PORT must be a port number/);
    expect(() => loadConfig({ DATA_DIR: dir, SEED: 'huge' })).toThrow(/SEED must be one of demo, none, scale/);
    expect(() => loadConfig({ DATA_DIR: dir, ROLE: 'boss' })).toThrow(/ROLE must be one of all, api, worker/);
    expect(() => loadConfig({ DATA_DIR: dir, DATA_KEY: 'short' })).toThrow(/DATA_KEY must be 64 hexadecimal/);
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE must be a whole number/);
    expect(() => loadConfig({ DATA_DIR: dir, RATE_LIMIT_PER_USER: '0' })).toThrow(/RATE_LIMIT_PER_USER must be a whole number of requests a minute/);
    expect(() => loadConfig({ DATA_DIR: dir, RATE_LIMIT_PER_ADDRESS: '1.5' })).toThrow(/RATE_LIMIT_PER_ADDRESS must be a whole number/);
  });

  it('reads the rate limits, requests a minute, with defaults that a console in normal use never reaches', () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).rateLimit).toEqual({ perUser: 1200, perAddress: 3000 });
    expect(loadConfig({ DATA_DIR: dir, RATE_LIMIT_PER_USER: '60', RATE_LIMIT_PER_ADDRESS: '600' }).rateLimit).toEqual({ perUser: 60, perAddress: 600 });
  });
});
