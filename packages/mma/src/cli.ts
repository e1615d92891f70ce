/**
 * The MMA's command line (README "Running it"):
 *
 *   npm run mma -- --server URL --token TOKEN --config mma.yaml [--state FILE]
 *
 * `--token` is a registration token (`mmar_…`, exchanged once; the
 * credential is kept in the state file, default `./.mma-state.json`) or an
 * MMA credential (`mmat_…`); `FLEET_MMA_TOKEN` may give it instead (kept out
 * of the process list); without either, the state file's credential is used.
 *
 * Exit codes: 0 stopped by SIGINT/SIGTERM (after the running operations'
 * grace); 1 the server refused the credential or the registration token, or
 * an unexpected error; 2 bad arguments or configuration. A second signal
 * exits at once (130).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { HOST_NAME_MESSAGE, HOST_NAME_PATTERN } from '@fleet/contracts';
import { runAgent } from './agent.js';
import { CredentialRejectedError, createMmaClient, describeError, type RetryPolicy } from './client.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger, type MmaLogger } from './logger.js';
import { DEFAULT_STATE_FILE, resolveCredential, TokenFormatError } from './state.js';

export const USAGE = `Usage: npm run mma -- --server URL --token TOKEN --config mma.yaml [--state FILE]

  --server URL     the Fleet Console server (https://fleet.example.com)
  --token TOKEN    a registration token (mmar_…, from the MMA screen's "Register an MMA")
                   or an MMA credential (mmat_…); or set FLEET_MMA_TOKEN; without either,
                   the credential saved in the state file
  --config FILE    the MMA's configuration (YAML: concurrency, heartbeatSeconds, executors, …)
  --state FILE     where the credential is kept (default ${DEFAULT_STATE_FILE}, mode 0600)
  --help           this text`;

/** The MMA's version: its package.json's. */
export const MMA_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface MainOptions {
  /** Aborted to stop gracefully (the process's SIGINT/SIGTERM). */
  stop?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  log?: MmaLogger;
  /** Where usage and argument errors go (default stderr). */
  print?: (text: string) => void;
  /** The client's backoff (tests). */
  retry?: RetryPolicy;
  /** How often a run sends its logs, ms (tests). */
  flushEveryMs?: number;
}

class UsageError extends Error {}

function parse(argv: string[], env: NodeJS.ProcessEnv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { server: { type: 'string' }, token: { type: 'string' }, config: { type: 'string' }, state: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return { help: true as const };
  const missing = (['server', 'config'] as const).filter((k) => !values[k]);
  if (missing.length > 0) throw new UsageError(`Missing ${missing.map((k) => `--${k}`).join(' and ')}`);
  let server: URL;
  try {
    server = new URL(values.server!);
  } catch {
    throw new UsageError(`--server must be a URL (https://fleet.example.com), not '${values.server}'`);
  }
  if (server.protocol !== 'https:' && server.protocol !== 'http:') throw new UsageError(`--server must be an http or https URL, not '${values.server}'`);
  return {
    help: false as const,
    server: values.server!.replace(/\/+$/, ''),
    token: values.token ?? (env.FLEET_MMA_TOKEN || undefined),
    config: values.config!,
    state: values.state ?? DEFAULT_STATE_FILE,
  };
}

/** Runs the MMA with command line `argv` (without node and the script); answers the exit code. */
export async function main(argv: string[], o: MainOptions = {}): Promise<number> {
  const env = o.env ?? process.env;
  const log = o.log ?? createLogger();
  const print = o.print ?? ((text: string) => void process.stderr.write(`${text}\n`));
  let args: Exclude<ReturnType<typeof parse>, { help: true }>;
  let config;
  try {
    const parsed = parse(argv, env);
    if (parsed.help) {
      print(USAGE);
      return 0;
    }
    args = parsed;
    config = await loadConfig(args.config);
  } catch (err) {
    if (err instanceof UsageError) print(`${err.message}\n\n${USAGE}`);
    else if (err instanceof ConfigError) print(err.message);
    else throw err;
    return 2;
  }
  const host = config.host ?? hostname();
  if (!HOST_NAME_PATTERN.test(host)) {
    print(`This machine's host name '${host}' is not one the server accepts (${HOST_NAME_MESSAGE}): set host in ${args.config}`);
    return 2;
  }
  const userAgent = `fleet-mma/${MMA_VERSION} (${host})`;

  try {
    const registrar = createMmaClient({ server: args.server, userAgent, log, retry: o.retry });
    const token = await resolveCredential({ token: args.token, stateFile: args.state, server: args.server, host, version: MMA_VERSION, client: registrar, log, signal: o.stop });
    const client = createMmaClient({ server: args.server, token, userAgent, log, retry: o.retry });
    const self = await client.whoami(o.stop);
    log.info('Connected', { server: args.server, agentId: self.id, mmaClassId: self.mmaClassId, host, version: MMA_VERSION, concurrency: config.concurrency });
    await runAgent({ client, config, configFile: args.config, log, stop: o.stop, env, flushEveryMs: o.flushEveryMs });
    return 0;
  } catch (err) {
    if (err instanceof TokenFormatError) {
      print(err.message);
      return 2;
    }
    if (err instanceof CredentialRejectedError) {
      const what = err.call === 'register' ? 'registration token' : 'credential';
      log.error(
        `The server refused the MMA's ${what} (401: ${err.detail}). ` +
          (err.call === 'register'
            ? 'It is unknown, used or expired: create a new one on the MMA screen ("Register an MMA").'
            : `It was revoked or is unknown: register this MMA again with a new registration token (the MMA screen's "Register an MMA"); it replaces the one in ${args.state}.`),
      );
      return 1;
    }
    if (o.stop?.aborted) return 0;
    log.error('The MMA stopped on an error', { error: describeError(err) });
    return 1;
  }
}

/** Started as a program (`tsx src/cli.ts`), not imported by a test. */
function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  const stop = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      process.stderr.write(`${signal} again: exiting now\n`);
      process.exit(130);
    }
    process.stderr.write(`${signal}: no more claims; the running operations have their grace, then the MMA exits\n`);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  main(process.argv.slice(2), { stop: stop.signal }).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
