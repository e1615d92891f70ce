import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, DEFAULT_GRAFANA_URL, loadConfig } from './config.js';
import { leaseSettings } from './engine/tasks/settings.js';
import { AGENT_ENGINE_DEFAULTS, operationLeaseSettings } from './engine/operations/agent.js';

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

  it('keeps objects under DATA_DIR/objects by default, on S3 when S3_URL is set (DESIGN §13)', () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).objectStore).toEqual({ kind: 'local', root: join(dir, 'objects') });
    const s3 = loadConfig({
      DATA_DIR: dir,
      S3_URL: 'http://127.0.0.1:9000',
      S3_BUCKET: 'fleet',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_FORCE_PATH_STYLE: 'true',
    }).objectStore;
    expect(s3).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'fleet',
      region: 'us-east-1',
      credentials: { accessKeyId: 'k', secretAccessKey: 's' },
      forcePathStyle: true,
    });
    expect(loadConfig({ DATA_DIR: dir, S3_URL: 'https://s3.eu-west-1.amazonaws.com', S3_BUCKET: 'b', S3_REGION: 'eu-west-1' }).objectStore).toMatchObject({
      region: 'eu-west-1',
      credentials: undefined,
      forcePathStyle: false,
    });
    expect(() => loadConfig({ DATA_DIR: dir, S3_URL: 'http://x' })).toThrow(/S3_BUCKET must be set when S3_URL is set/);
    expect(() => loadConfig({ DATA_DIR: dir, S3_URL: 'ftp://x', S3_BUCKET: 'b' })).toThrow(/S3_URL must be an http\(s\) URL/);
    expect(() => loadConfig({ DATA_DIR: dir, S3_URL: 'http://x', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(/must be set together/);
    expect(() => loadConfig({ DATA_DIR: dir, S3_URL: 'http://x', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE must be one of true, false/);
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

  it("reads a remote MMA's lease, seconds (MMA_LEASE_S: default 60, at least 10; issue 27)", () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).agent.mmaLeaseSeconds).toBe(60);
    expect(loadConfig({ DATA_DIR: dir, MMA_LEASE_S: '15' }).agent.mmaLeaseSeconds).toBe(15);
    expect(() => loadConfig({ DATA_DIR: dir, MMA_LEASE_S: '5' })).toThrow(/MMA_LEASE_S must be a whole number of seconds, at least 10/);
  });

  it("reads the longest hold of a claim's long poll, seconds (MMA_CLAIM_WAIT_MAX_S: default 30, from 0 to 30)", () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).agent.mmaClaimWaitMaxSeconds).toBe(30);
    expect(loadConfig({ DATA_DIR: dir, MMA_CLAIM_WAIT_MAX_S: '0' }).agent.mmaClaimWaitMaxSeconds).toBe(0);
    expect(() => loadConfig({ DATA_DIR: dir, MMA_CLAIM_WAIT_MAX_S: '31' })).toThrow(/MMA_CLAIM_WAIT_MAX_S must be at most 30 \(got '31'\)/);
    expect(() => loadConfig({ DATA_DIR: dir, MMA_CLAIM_WAIT_MAX_S: 'soon' })).toThrow(/MMA_CLAIM_WAIT_MAX_S must be a whole number of seconds/);
  });

  it("reads a running task's lease, seconds (TASK_LEASE_S: default 30, at least 3), and derives the heartbeat and the sweep from it", () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).taskLeaseSeconds).toBe(30);
    expect(loadConfig({ DATA_DIR: dir, TASK_LEASE_S: '6' }).taskLeaseSeconds).toBe(6);
    expect(() => loadConfig({ DATA_DIR: dir, TASK_LEASE_S: '2' })).toThrow(/TASK_LEASE_S must be a whole number of seconds, at least 3/);
    expect(leaseSettings(30)).toEqual({ staleMs: 30_000, heartbeatMs: 5_000, sweepMs: 10_000 });
    expect(leaseSettings(6)).toEqual({ staleMs: 6_000, heartbeatMs: 1_000, sweepMs: 2_000 });
    expect(leaseSettings(120)).toEqual({ staleMs: 120_000, heartbeatMs: 5_000, sweepMs: 10_000 });
  });

  it('reads how often the scheduler passes, ms (SCHEDULER_PASS_MS: default 10000, at least 100)', () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).schedulerPassMs).toBe(10_000);
    expect(loadConfig({ DATA_DIR: dir, SCHEDULER_PASS_MS: '2000' }).schedulerPassMs).toBe(2000);
    expect(() => loadConfig({ DATA_DIR: dir, SCHEDULER_PASS_MS: '50' })).toThrow(/SCHEDULER_PASS_MS must be a whole number of ms, at least 100/);
  });

  it("reads a running operation's lease, seconds (OPERATION_LEASE_S: default 30, at least 3), and derives the heartbeat and the pass from it", () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).agent.operationLeaseSeconds).toBe(30);
    expect(loadConfig({ DATA_DIR: dir, OPERATION_LEASE_S: '6' }).agent.operationLeaseSeconds).toBe(6);
    expect(() => loadConfig({ DATA_DIR: dir, OPERATION_LEASE_S: '2' })).toThrow(/OPERATION_LEASE_S must be a whole number of seconds, at least 3/);
    // The defaults are the engine's own.
    expect(operationLeaseSettings(30)).toEqual({ staleMs: AGENT_ENGINE_DEFAULTS.staleMs, heartbeatMs: AGENT_ENGINE_DEFAULTS.heartbeatMs, passMs: AGENT_ENGINE_DEFAULTS.passMs });
    expect(operationLeaseSettings(6)).toEqual({ staleMs: 6_000, heartbeatMs: 1_000, passMs: 2_000 });
    expect(operationLeaseSettings(120)).toEqual({ staleMs: 120_000, heartbeatMs: 5_000, passMs: 5_000 });
  });

  it('reads who runs the operations of the classes that are not remote (SIM_MMA: protocol by default, or engine) and how many at once', () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).agent).toMatchObject({ simMma: 'protocol', simMmaConcurrency: 64 });
    expect(loadConfig({ DATA_DIR: dir, SIM_MMA: 'engine', SIM_MMA_CONCURRENCY: '4' }).agent).toMatchObject({ simMma: 'engine', simMmaConcurrency: 4 });
    expect(() => loadConfig({ DATA_DIR: dir, SIM_MMA: 'remote' })).toThrow(/SIM_MMA must be one of engine, protocol \(got 'remote'\)/);
    expect(() => loadConfig({ DATA_DIR: dir, SIM_MMA_CONCURRENCY: '0' })).toThrow(/SIM_MMA_CONCURRENCY must be a whole number of operations, at least 1/);
    expect(() => loadConfig({ DATA_DIR: dir, SIM_MMA_CONCURRENCY: '65' })).toThrow(/SIM_MMA_CONCURRENCY must be at most 64/);
    expect(() => loadConfig({ DATA_DIR: dir, SIM_CLOUD_DELAY_MS: '-1' })).toThrow(/SIM_CLOUD_DELAY_MS must be a whole number of milliseconds, at least 0/);
  });

  it('reads the probe interval, seconds (default 60, 0 switches probes off), and the machines whose probes fail (DESIGN §14)', () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).probes).toEqual({ intervalS: 60, failMachines: [] });
    expect(loadConfig({ DATA_DIR: dir, PROBE_INTERVAL_S: '0', SIM_PROBE_FAIL_MACHINES: ' a-launcher, ,b ' }).probes).toEqual({ intervalS: 0, failMachines: ['a-launcher', 'b'] });
    expect(() => loadConfig({ DATA_DIR: dir, PROBE_INTERVAL_S: '-1' })).toThrow(/PROBE_INTERVAL_S must be a whole number of seconds/);
    expect(() => loadConfig({ DATA_DIR: dir, PROBE_INTERVAL_S: 'often' })).toThrow(/PROBE_INTERVAL_S must be a whole number of seconds/);
  });

  it("reads the Grafana of the machines' dashboards: the provider's by default, none, or an http(s) URL (spec 2 §3 grafanaUrl)", () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).grafanaUrl).toBe(DEFAULT_GRAFANA_URL);
    expect(loadConfig({ DATA_DIR: dir, GRAFANA_URL: 'none' }).grafanaUrl).toBeNull();
    expect(loadConfig({ DATA_DIR: dir, GRAFANA_URL: 'https://grafana.example.org/sub/' }).grafanaUrl).toBe('https://grafana.example.org/sub');
    for (const bad of ['grafana.example.org', 'ftp://grafana.example.org', 'https://g.example.org/?orgId=1']) {
      expect(() => loadConfig({ DATA_DIR: dir, GRAFANA_URL: bad }), bad).toThrow(/GRAFANA_URL must be the http\(s\) URL of Grafana, or none/);
    }
  });

  it('reads the metrics token and port: off by default, at least 16 characters, the worker on METRICS_PORT or PORT (issue 28)', () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).metrics).toBeNull();
    expect(loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'a-long-enough-token' }).metrics).toEqual({ token: 'a-long-enough-token', port: 3000 });
    expect(loadConfig({ DATA_DIR: dir, PORT: '8080', METRICS_TOKEN: 'a-long-enough-token' }).metrics).toEqual({ token: 'a-long-enough-token', port: 8080 });
    expect(loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'a-long-enough-token', METRICS_PORT: '9464' }).metrics).toEqual({ token: 'a-long-enough-token', port: 9464 });
    for (const bad of ['short', 'has a space in it too', '               x']) {
      expect(() => loadConfig({ DATA_DIR: dir, METRICS_TOKEN: bad }), bad).toThrow('METRICS_TOKEN must be at least 16 characters, without spaces');
    }
    expect(() => loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'a-long-enough-token', METRICS_PORT: '70000' })).toThrow(/METRICS_PORT must be a port number/);
  });

  it('reads PUBLIC_URL, the base of the notifications\' links: http://localhost:<PORT> by default, an http(s) URL without its trailing slash (issue 28)', () => {
    const dir = freshDir();
    expect(loadConfig({ DATA_DIR: dir }).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ DATA_DIR: dir, PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://fleet.example.net/console/' }).publicUrl).toBe('https://fleet.example.net/console');
    for (const bad of ['fleet.example.net', 'ftp://fleet.example.net', 'https://fleet.example.net/?a=1', 'https://fleet.example.net/#/x']) {
      expect(() => loadConfig({ DATA_DIR: dir, PUBLIC_URL: bad }), bad).toThrow(/^PUBLIC_URL must be the http\(s\) URL the console is opened at/);
    }
  });
});
