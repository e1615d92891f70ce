/**
 * Process configuration from the environment (DESIGN §4).
 *
 * With the embedded database, missing secrets (`JWT_SECRET`, `DATA_KEY`) are
 * generated on first start and kept in `DATA_DIR/secrets.json` (mode 0600). With
 * `DATABASE_URL` they are required: `loadConfig` throws a `ConfigError` naming them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { resolve } from 'node:path';
import { MMA_CLAIM_MAX_OPERATIONS, MMA_CLAIM_WAIT_MAX_S, MMA_LEASE_S_DEFAULT } from '@fleet/contracts';
import { ssoConfig, type SsoConfig } from './modules/sso/sso.config.js';
import { ConfigError, nameList, oneOf, wholeNumber } from './config-env.js';
import { awsCloudConfig, type AwsCloudConfig } from './engine/cloud/aws.config.js';

export { ConfigError };
export { awsCloudConfig, DEFAULT_AWS_MAX_ATTEMPTS, type AwsCloudConfig } from './engine/cloud/aws.config.js';

export type SeedKind = 'demo' | 'none' | 'scale';
export type Role = 'all' | 'api' | 'worker';

export interface Config {
  dataDir: string;
  port: number;
  /** External PostgreSQL; when absent the embedded one is started under `dataDir/pg`. */
  databaseUrl: string | undefined;
  jwtSecret: string;
  /** 32-byte key (hex) encrypting secrets at rest. */
  dataKey: string;
  seed: SeedKind;
  role: Role;
  /** Connections of each of the process's two PostgreSQL pools (`DATABASE_POOL_SIZE`; db/client.ts). */
  databasePoolSize: number;
  /** `CLOUD_PROVIDER`: the cloud the task engine drives (DESIGN §8, §17): `simulated` (default) or `aws`. */
  cloudProvider: 'simulated' | 'aws';
  /** The `aws` provider's settings (see {@link awsCloudConfig}); undefined unless `CLOUD_PROVIDER=aws`. */
  aws: AwsCloudConfig | undefined;
  /** `SIM_CLOUD_DELAY_MS`: duration of each simulated instance transition, ms (default 2000). */
  simCloudDelayMs: number;
  /**
   * The machine management agent (DESIGN §12, `engine/operations/README.md`):
   * `SIM_AGENT_DELAY_MS` real milliseconds per nominal second of simulated
   * operation work (default 200; 0 runs operations at once); `PANIC_FAILURES`
   * failures in a row that put a machine in Panic (default 3); `ANOMALY_FAILURES`
   * failures of one class within `ANOMALY_WINDOW_MINUTES` that switch the class's
   * standby on (defaults 5 and 10). `SIM_AGENT_FAIL_MACHINES`: names of
   * machines whose every operation the simulated agent fails (tests of
   * another process, such as the e2e suite). `MMA_LEASE_S`: how long a remote
   * MMA's lease on an operation lasts without a heartbeat (issue 27; default
   * 60, at least 10): then the operation is offered again when its type is
   * idempotent, else it ends FAILURE 'MMA lost'. `mmaLeaseGraceFrom`: the
   * time the configuration was loaded (the process's start): remote leases
   * count from it at the earliest, so a server restart does not cost the MMAs
   * their operations (unset in tests: no grace). `MMA_CLAIM_WAIT_MAX_S`: the
   * longest a claim's long poll is held, seconds (0 to 30, default 30: the
   * protocol's `waitSeconds` maximum); lower it behind a proxy that closes an
   * idle connection sooner. `SIM_MMA`: who runs the
   * operations of the classes that are not remote: `protocol` (default), the
   * reference MMA's simulated executor in process through the MMA protocol
   * (`modules/mma-protocol/in-process-mmas.ts`), or `engine`, the operation
   * engine's own simulated agent; `SIM_MMA_CONCURRENCY`
   * operations of each class at once (default 64, as many as the engine runs).
   * `OPERATION_LEASE_S`: how long an operation the worker's own agent runs
   * keeps its lease without a heartbeat before another worker resumes it
   * (`engine/operations/README.md`; default 30, at least 3; heartbeat a sixth
   * of it and pass a third, each at most 5 s).
   */
  agent: {
    simDelayMs: number;
    panicFailures: number;
    anomalyFailures: number;
    anomalyWindowMinutes: number;
    mmaLeaseSeconds: number;
    mmaLeaseGraceFrom?: Date;
    mmaClaimWaitMaxSeconds: number;
    operationLeaseSeconds: number;
    simMma: 'engine' | 'protocol';
    simMmaConcurrency: number;
  };
  /**
   * `TASK_LEASE_S`: how long a running task's lease lasts without its worker's
   * heartbeat before another worker resumes it (DESIGN §6,
   * `engine/tasks/README.md`; default 30, at least 3). The heartbeat is a sixth
   * of it (at most 5 s) and the sweep a third (at most 10 s), so a dead
   * worker's task is resumed within about one and a half leases.
   */
  taskLeaseSeconds: number;
  /** `SERVER_STATUS_INTERVAL_S`: how often the worker checks the site server status of running managed machines (DESIGN §14; default 60). */
  serverStatusIntervalS: number;
  /** `ROLLOUT_PASS_MS`: how often the worker's rollout engine looks at the running rollouts (DESIGN §15; default 1000). */
  rolloutPassMs: number;
  /** `SCHEDULER_PASS_MS`: how often the worker's scheduler plans and runs what is due (DESIGN §13, `engine/schedules/README.md`; default 10000, at least 100). */
  schedulerPassMs: number;
  /**
   * `ROLLOUT_REQUIRE_SECOND_APPROVER` true or false, default true: the approver
   * of a rollout's wave must not be the user who started it (four eyes; issue 25
   * point 1, `engine/rollouts/README.md` Approvals).
   */
  rolloutRequireSecondApprover: boolean;
  /**
   * `HISTORY_RETENTION_DAYS` (default 180, at least 1): finished rollouts and
   * operations' outputs older than this are deleted (issue 25 point 6;
   * `engine/history/README.md`). Audit activities are never deleted.
   */
  historyRetentionDays: number;
  simAgentFailMachines: string[];
  /**
   * Probes (DESIGN §14, `engine/probes/README.md`): `PROBE_INTERVAL_S` seconds
   * in which every running machine's launcher and site master URLs are probed
   * once, spread evenly (default 60; 0 switches probes off);
   * `SIM_PROBE_FAIL_MACHINES`: names of machines whose probes the simulated
   * endpoint fails (tests of another process).
   */
  probes: { intervalS: number; failMachines: string[] };
  /**
   * `DEMO_SCHEDULES` true or false, default true: with `SEED=demo`, each start
   * sets one demo account's backup time and another's idle entry so that both
   * run within the first minute (`seed/demo-schedules.ts`). The e2e server sets false.
   */
  demoSchedules: boolean;
  /**
   * Requests a minute one signed-in user may make (`RATE_LIMIT_PER_USER`), and
   * requests a minute from one client address (`RATE_LIMIT_PER_ADDRESS`), signed in
   * or not, console files included. Past either the server answers 429 with
   * Retry-After (docs/architecture.md, Decisions).
   */
  rateLimit: { perUser: number; perAddress: number };
  /**
   * Where objects (backup files, sample data files) are kept (DESIGN §13): the
   * folder `DATA_DIR/objects` by default, or the S3 API when `S3_URL` is set
   * (`S3_BUCKET` required; `S3_REGION` default us-east-1; `S3_ACCESS_KEY_ID` and
   * `S3_SECRET_ACCESS_KEY` together, else the SDK's default credential chain;
   * `S3_FORCE_PATH_STYLE` true or false, default false: true for most
   * S3-compatible servers).
   */
  objectStore: ObjectStoreConfig;
  /**
   * `GRAFANA_URL`: the provider's Grafana, whose machine dashboard a machine's
   * `grafanaUrl` opens (spec 2 §3; `modules/machines/grafana.ts`). Default
   * {@link DEFAULT_GRAFANA_URL}; `none`: no machine has a Grafana link.
   */
  grafanaUrl: string | null;
  /**
   * `METRICS_TOKEN`: the bearer token Prometheus reads `GET /metrics` with
   * (issue 28; `metrics/README.md`), at least 16 characters; unset: no
   * `/metrics`. `METRICS_PORT`: where a worker (`ROLE=worker`, no API) serves
   * it, default `PORT`; the API roles serve it beside the API.
   */
  metrics: { token: string; port: number } | null;
  /**
   * `PUBLIC_URL`: the console's address as its users open it, without a trailing
   * slash (default `http://localhost:<PORT>`): every notification message links
   * to a page under it (issue 28 point 3; `engine/notification-delivery/README.md`).
   */
  publicUrl: string;
  /**
   * Single sign-on (issue 28 point 2; `modules/sso/sso.config.ts` names the
   * variables: `OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`,
   * `OIDC_NAME`, `OIDC_GROUPS_CLAIM`, `OIDC_GROUP_MAP`, `LOCAL_LOGIN`; the
   * redirect URI is under `PUBLIC_URL`). `oidc` null: no single sign-on.
   */
  sso: SsoConfig;
  /** Folder of the built console served at `/`, if built. */
  webDist: string;
  logLevel: string;
  production: boolean;
}

export type ObjectStoreConfig =
  | { kind: 'local'; root: string }
  | {
      kind: 's3';
      endpoint: string;
      bucket: string;
      region: string;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      forcePathStyle: boolean;
    };

/**
 * Default rate limits, requests a minute. An operator's console polls every 2 s
 * and a machines screen makes several calls at once: a user with a few tabs open
 * makes some 300 a minute, so 1,200 never trips normal use. An address carries
 * several users behind one office router, and the console's files on each load.
 */
export const DEFAULT_RATE_LIMIT = { perUser: 1200, perAddress: 3000 } as const;

/** Defaults of the machine management agent (DESIGN §12). */
export const DEFAULT_AGENT = { simDelayMs: 200, panicFailures: 3, anomalyFailures: 5, anomalyWindowMinutes: 10, mmaLeaseSeconds: MMA_LEASE_S_DEFAULT, mmaClaimWaitMaxSeconds: MMA_CLAIM_WAIT_MAX_S, operationLeaseSeconds: 30, simMma: 'protocol', simMmaConcurrency: 64 } as const;

/** Default `GRAFANA_URL`: the provider's Grafana, on its domain (contracts PROVIDER_DOMAIN). */
export const DEFAULT_GRAFANA_URL = 'https://grafana.fleet.example.net';

/** `GRAFANA_URL` (see {@link Config.grafanaUrl}): an http(s) URL without its trailing slash, or null for `none`. */
export function grafanaUrlConfig(value: string | undefined): string | null {
  if (value === undefined || value === '') return DEFAULT_GRAFANA_URL;
  if (value === 'none') return null;
  return baseUrl(value, `GRAFANA_URL must be the http(s) URL of Grafana, or none (got '${value}')`);
}

/** `value` as a base URL: http(s), no query or fragment, without its trailing slash; else a `ConfigError` saying `message`. */
function baseUrl(value: string, message: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) throw new ConfigError(message);
  return value.replace(/\/+$/, '');
}

/** `METRICS_TOKEN` and `METRICS_PORT` (see {@link Config.metrics}); throws a `ConfigError` for a short token or a bad port. */
export function metricsConfig(env: NodeJS.ProcessEnv, port: number): Config['metrics'] {
  const token = env.METRICS_TOKEN;
  if (token === undefined || token === '') return null;
  if (token.trim().length < 16 || /\s/.test(token)) throw new ConfigError('METRICS_TOKEN must be at least 16 characters, without spaces');
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : port;
  if (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535) {
    throw new ConfigError(`METRICS_PORT must be a port number (got '${env.METRICS_PORT}')`);
  }
  return { token, port: metricsPort };
}

/** `PUBLIC_URL` (see {@link Config.publicUrl}): an http(s) URL without its trailing slash; throws a `ConfigError` for anything else. */
export function publicUrlConfig(value: string | undefined, port: number): string {
  if (value === undefined || value === '') return `http://localhost:${port}`;
  return baseUrl(value, `PUBLIC_URL must be the http(s) URL the console is opened at (got '${value}')`);
}

/** Default `SCHEDULER_PASS_MS`, ms (DESIGN §13). */
export const DEFAULT_SCHEDULER_PASS_MS = 10_000;

/** Default `PROBE_INTERVAL_S`, seconds (DESIGN §14). */
export const DEFAULT_PROBE_INTERVAL_S = 60;

/** A comma list of names from the environment, trimmed, blanks left out. */

interface Secrets {
  jwtSecret: string;
  dataKey: string;
  postgresPassword: string;
}

/** Reads or creates `secrets.json` in the data folder (mode 0600). */
export function loadOrCreateSecrets(dataDir: string): Secrets {
  mkdirSync(dataDir, { recursive: true });
  const file = resolve(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
  const secrets: Secrets = {
    jwtSecret: randomBytes(32).toString('hex'),
    dataKey: randomBytes(32).toString('hex'),
    postgresPassword: randomBytes(16).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}

/** The object store settings (see {@link Config.objectStore}); throws a `ConfigError` naming what is wrong. */
export function objectStoreConfig(env: NodeJS.ProcessEnv, dataDir: string): ObjectStoreConfig {
  const url = env.S3_URL || undefined;
  if (!url) return { kind: 'local', root: resolve(dataDir, 'objects') };
  let endpoint: URL;
  try {
    endpoint = new URL(url);
  } catch {
    throw new ConfigError(`S3_URL must be an http(s) URL of the S3 endpoint (got '${url}')`);
  }
  if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') throw new ConfigError(`S3_URL must be an http(s) URL of the S3 endpoint (got '${url}')`);
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new ConfigError('S3_BUCKET must be set when S3_URL is set');
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  const pathStyle = oneOf('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE, ['true', 'false'], 'false');
  return {
    kind: 's3',
    endpoint: url,
    bucket,
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: pathStyle === 'true',
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const databaseUrl = env.DATABASE_URL || undefined;
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number (got '${env.PORT}')`);

  let jwtSecret = env.JWT_SECRET;
  let dataKey = env.DATA_KEY;
  if (databaseUrl) {
    const missing = [!jwtSecret && 'JWT_SECRET', !dataKey && 'DATA_KEY'].filter(Boolean);
    if (missing.length > 0) {
      throw new ConfigError(
        `${missing.join(' and ')} must be set when DATABASE_URL is set (generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('hex'))")`,
      );
    }
  } else {
    const secrets = loadOrCreateSecrets(dataDir);
    jwtSecret ??= secrets.jwtSecret;
    dataKey ??= secrets.dataKey;
  }
  const databasePoolSize = Number(env.DATABASE_POOL_SIZE ?? 10);
  if (!Number.isInteger(databasePoolSize) || databasePoolSize < 1 || databasePoolSize > 200) {
    throw new ConfigError(`DATABASE_POOL_SIZE must be a whole number from 1 to 200 (got '${env.DATABASE_POOL_SIZE}')`);
  }
  if (!/^[0-9a-f]{64}$/i.test(dataKey!)) throw new ConfigError('DATA_KEY must be 64 hexadecimal characters (32 bytes)');
  const simCloudDelayMs = wholeNumber('SIM_CLOUD_DELAY_MS', env.SIM_CLOUD_DELAY_MS, 2000, 'milliseconds', 0);
  const cloudProvider = oneOf('CLOUD_PROVIDER', env.CLOUD_PROVIDER, ['simulated', 'aws'], 'simulated');
  const rateLimit = {
    perUser: wholeNumber('RATE_LIMIT_PER_USER', env.RATE_LIMIT_PER_USER, DEFAULT_RATE_LIMIT.perUser),
    perAddress: wholeNumber('RATE_LIMIT_PER_ADDRESS', env.RATE_LIMIT_PER_ADDRESS, DEFAULT_RATE_LIMIT.perAddress),
  };

  const agent = {
    simDelayMs: wholeNumber('SIM_AGENT_DELAY_MS', env.SIM_AGENT_DELAY_MS, DEFAULT_AGENT.simDelayMs, 'milliseconds', 0),
    panicFailures: wholeNumber('PANIC_FAILURES', env.PANIC_FAILURES, DEFAULT_AGENT.panicFailures, 'failures'),
    anomalyFailures: wholeNumber('ANOMALY_FAILURES', env.ANOMALY_FAILURES, DEFAULT_AGENT.anomalyFailures, 'failures'),
    anomalyWindowMinutes: wholeNumber('ANOMALY_WINDOW_MINUTES', env.ANOMALY_WINDOW_MINUTES, DEFAULT_AGENT.anomalyWindowMinutes, 'minutes'),
    mmaLeaseSeconds: wholeNumber('MMA_LEASE_S', env.MMA_LEASE_S, DEFAULT_AGENT.mmaLeaseSeconds, 'seconds', 10),
    mmaLeaseGraceFrom: new Date(),
    mmaClaimWaitMaxSeconds: wholeNumber('MMA_CLAIM_WAIT_MAX_S', env.MMA_CLAIM_WAIT_MAX_S, DEFAULT_AGENT.mmaClaimWaitMaxSeconds, 'seconds', 0),
    operationLeaseSeconds: wholeNumber('OPERATION_LEASE_S', env.OPERATION_LEASE_S, DEFAULT_AGENT.operationLeaseSeconds, 'seconds', 3),
    simMma: oneOf('SIM_MMA', env.SIM_MMA, ['engine', 'protocol'], DEFAULT_AGENT.simMma),
    simMmaConcurrency: wholeNumber('SIM_MMA_CONCURRENCY', env.SIM_MMA_CONCURRENCY, DEFAULT_AGENT.simMmaConcurrency, 'operations'),
  };
  if (agent.mmaClaimWaitMaxSeconds > MMA_CLAIM_WAIT_MAX_S) throw new ConfigError(`MMA_CLAIM_WAIT_MAX_S must be at most ${MMA_CLAIM_WAIT_MAX_S} (got '${env.MMA_CLAIM_WAIT_MAX_S}')`);
  if (agent.simMmaConcurrency > MMA_CLAIM_MAX_OPERATIONS) throw new ConfigError(`SIM_MMA_CONCURRENCY must be at most ${MMA_CLAIM_MAX_OPERATIONS} (got '${env.SIM_MMA_CONCURRENCY}')`);

  return {
    dataDir,
    port,
    databaseUrl,
    jwtSecret: jwtSecret!,
    dataKey: dataKey!,
    seed: oneOf('SEED', env.SEED, ['demo', 'none', 'scale'], databaseUrl ? 'none' : 'demo'),
    role: oneOf('ROLE', env.ROLE, ['all', 'api', 'worker'], 'all'),
    databasePoolSize,
    cloudProvider,
    aws: cloudProvider === 'aws' ? awsCloudConfig(env) : undefined,
    simCloudDelayMs,
    agent,
    taskLeaseSeconds: wholeNumber('TASK_LEASE_S', env.TASK_LEASE_S, 30, 'seconds', 3),
    serverStatusIntervalS: wholeNumber('SERVER_STATUS_INTERVAL_S', env.SERVER_STATUS_INTERVAL_S, 60, 'seconds'),
    rolloutPassMs: wholeNumber('ROLLOUT_PASS_MS', env.ROLLOUT_PASS_MS, 1000, 'ms'),
    schedulerPassMs: wholeNumber('SCHEDULER_PASS_MS', env.SCHEDULER_PASS_MS, DEFAULT_SCHEDULER_PASS_MS, 'ms', 100),
    historyRetentionDays: wholeNumber('HISTORY_RETENTION_DAYS', env.HISTORY_RETENTION_DAYS, 180, 'days', 1),
    rolloutRequireSecondApprover: oneOf('ROLLOUT_REQUIRE_SECOND_APPROVER', env.ROLLOUT_REQUIRE_SECOND_APPROVER, ['true', 'false'], 'true') === 'true',
    simAgentFailMachines: nameList(env.SIM_AGENT_FAIL_MACHINES),
    probes: {
      intervalS: wholeNumber('PROBE_INTERVAL_S', env.PROBE_INTERVAL_S, DEFAULT_PROBE_INTERVAL_S, 'seconds', 0),
      failMachines: nameList(env.SIM_PROBE_FAIL_MACHINES),
    },
    demoSchedules: oneOf('DEMO_SCHEDULES', env.DEMO_SCHEDULES, ['true', 'false'], 'true') === 'true',
    rateLimit,
    objectStore: objectStoreConfig(env, dataDir),
    grafanaUrl: grafanaUrlConfig(env.GRAFANA_URL),
    metrics: metricsConfig(env, port),
    publicUrl: publicUrlConfig(env.PUBLIC_URL, port),
    sso: ssoConfig(env, publicUrlConfig(env.PUBLIC_URL, port), ConfigError),
    webDist: resolve(env.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    logLevel: env.LOG_LEVEL ?? 'info',
    production: env.NODE_ENV === 'production',
  };
}
