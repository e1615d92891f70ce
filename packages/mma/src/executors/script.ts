/**
 * The script executor (README "Script executors"): runs the configured
 * command for an operation, as the leader of a process group of its own
 * (`detached: true`), with stdin closed and three pipes:
 *
 * - stdout and stderr: each line is a line of the operation's output, except
 *   the stdout lines starting with `::deployer:: `, which go (without the
 *   marker) to the deployer log (for shells without a file descriptor 3, as
 *   PowerShell);
 * - file descriptor 3: each line is a line of the deployer log
 *   (`echo "migrate: done" >&3`).
 *
 * Exit code 0 is SUCCESS; another is FAILURE "Exited with code N: <the
 * output's last line>". Past its time (`ctx.timeoutMs`) or when `ctx.signal`
 * aborts, the whole group gets SIGTERM, then SIGKILL after 5 s; so do the
 * processes the command left behind when it exits (as the GitHub Actions
 * runner cleans up orphan processes), so that nothing of an operation
 * outlives it.
 *
 * The command's environment: the MMA's, the executor's `env`, the
 * operation's `FLEET_*` variables ({@link operationEnv}), then a Backup's or
 * RestoreBackup's folder (`FLEET_BACKUP_DIR`, `FLEET_RESTORE_DIR`, and the
 * software: `../backup-files.ts`).
 *
 * Known limitations: POSIX hosts only (process groups; on Windows run the MMA
 * under WSL). A process that leaves the group (`setsid`) is not followed.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeployType, isVersionMap, type TMmaClaimedOperation } from '@fleet/contracts';
import type { ScriptExecutorConfig } from '../config.js';
import { groupAlive, stopGroup } from './process-group.js';
import { STOPPED_MESSAGE, timedOutMessage, type Executor } from './types.js';

/** The stdout prefix of a deployer log line. */
export const DEPLOYER_MARKER = '::deployer:: ';
/** SIGTERM to SIGKILL, ms. */
export const KILL_AFTER_MS = 5_000;
/** How long the pipes may stay open once the group is gone, ms (a process that left the group may hold them). */
const PIPES_CLOSE_MS = 1_000;

/** `populateLauncher` → `POPULATE_LAUNCHER`, `site-master` → `SITE_MASTER`. */
export const upperSnake = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();

/**
 * The `FLEET_*` variables of an operation (README "Environment"): its id,
 * type, attempt, whether it resumes a lost attempt, its machine (id, name,
 * account, host name, cloud id, roles, sample data), its params (as JSON, and
 * one `FLEET_PARAM_<UPPER_SNAKE>` per string, number or boolean), and the
 * versions to install (`FLEET_VERSIONS` as JSON: an UpdateSoftware's or a
 * TestLatestCode's `params.versions`, fixed by the server at the claim, else
 * the machine's desired versions; one
 * `FLEET_VERSION_<COMPONENT>` each), and what the server knows runs there
 * (`FLEET_INSTALLED_VERSIONS`, JSON). A null is the empty string.
 */
export function operationEnv(op: TMmaClaimedOperation): Record<string, string> {
  const m = op.machine;
  const env: Record<string, string> = {
    FLEET_OPERATION_ID: String(op.operationId),
    FLEET_OPERATION_TYPE: op.typeName,
    FLEET_ATTEMPT: String(op.attempt),
    FLEET_RESUMED: String(op.resumed),
    FLEET_MACHINE_ID: String(m.id),
    FLEET_MACHINE_NAME: m.name,
    FLEET_ACCOUNT_ID: String(m.accountId),
    FLEET_HOST_NAME: m.hostName ?? '',
    FLEET_CLOUD_ID: m.cloudId ?? '',
    FLEET_IS_LAUNCHER: String(m.isLauncher),
    FLEET_IS_SITE_MASTER: String(m.isSiteMaster),
    FLEET_SAMPLE_DATA: m.sampleData,
    FLEET_SAMPLE_DATA_FILE: m.sampleDataFile ?? '',
    FLEET_PARAMS: JSON.stringify(op.params),
  };
  for (const [key, value] of Object.entries(op.params)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) env[`FLEET_PARAM_${upperSnake(key)}`] = String(value);
  }
  const versions = isDeployType(op.typeName) && isVersionMap(op.params.versions) ? op.params.versions : m.desiredVersions;
  env.FLEET_VERSIONS = JSON.stringify(versions);
  // What the server knows runs there ({} from a server that does not say), so a deploy can change only what differs.
  env.FLEET_INSTALLED_VERSIONS = JSON.stringify(m.installedVersions ?? {});
  for (const [component, version] of Object.entries(versions)) env[`FLEET_VERSION_${upperSnake(component)}`] = version;
  return env;
}

/** The program and arguments of `config.command`: a string through its shell, a list as it is. */
export function commandLine(config: Pick<ScriptExecutorConfig, 'command' | 'shell'>): { file: string; args: string[] } {
  if (Array.isArray(config.command)) return { file: config.command[0]!, args: config.command.slice(1) };
  switch (config.shell ?? 'sh') {
    case 'pwsh':
      return { file: 'pwsh', args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', config.command] };
    case 'bash':
      return { file: 'bash', args: ['-c', config.command] };
    default:
      return { file: 'sh', args: ['-c', config.command] };
  }
}

/** Calls `onLine` for each line of `input`; resolves when it closes. */
function lines(input: Readable | null | undefined, onLine: (line: string) => void): Promise<void> {
  if (!input) return Promise.resolve();
  const rl = createInterface({ input, crlfDelay: Infinity });
  rl.on('line', onLine);
  return new Promise((resolve) => rl.once('close', resolve));
}

export interface ScriptExecutorOptions {
  config: ScriptExecutorConfig;
  /** The MMA's environment (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** SIGTERM to SIGKILL, ms (default {@link KILL_AFTER_MS}). */
  killAfterMs?: number;
}

/** An executor running `config.command` for each operation (see the module's docstring). */
export function createScriptExecutor({ config, env = process.env, killAfterMs = KILL_AFTER_MS }: ScriptExecutorOptions): Executor {
  return async (ctx) => {
    const { file, args } = commandLine(config);
    let lastLine = '';
    const output = (line: string) => {
      if (line.trim() !== '') lastLine = line.trim();
      ctx.output(line);
    };
    if (ctx.signal.aborted) return { status: 'FAILURE', message: STOPPED_MESSAGE };

    const child = spawn(file, args, {
      cwd: config.cwd,
      env: { ...env, ...config.env, ...operationEnv(ctx.operation), ...ctx.files?.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: Error }>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', (error) => resolve({ error }));
    });
    const pipes = Promise.all([
      lines(child.stdout, (line) => (line.startsWith(DEPLOYER_MARKER) ? ctx.deployerLog(line.slice(DEPLOYER_MARKER.length)) : output(line))),
      lines(child.stderr, output),
      lines(child.stdio[3] as Readable | null, (line) => ctx.deployerLog(line)),
    ]);

    let stopped: 'timeout' | 'signal' | undefined;
    let stopping: Promise<void> | undefined;
    const stop = (why: 'timeout' | 'signal') => {
      if (stopped || child.pid === undefined) return;
      stopped = why;
      stopping = stopGroup(child.pid, killAfterMs);
    };
    const timer = setTimeout(() => stop('timeout'), Math.max(0, ctx.timeoutMs));
    const onAbort = () => stop('signal');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    let end: Awaited<typeof exited>;
    try {
      end = await exited;
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
    }
    if ('error' in end) {
      for (const s of child.stdio) s?.destroy();
      return { status: 'FAILURE', message: `Cannot start ${file}: ${end.error.message}` };
    }
    // What the command left behind goes with it (an orphan holding the pipes, a background job).
    if (child.pid !== undefined && !stopping && groupAlive(child.pid)) stopping = stopGroup(child.pid, killAfterMs);
    await stopping;
    const drained = new AbortController();
    await Promise.race([pipes, sleep(PIPES_CLOSE_MS, undefined, { signal: drained.signal }).catch(() => undefined)]);
    drained.abort();
    for (const s of child.stdio) s?.destroy();

    if (stopped === 'timeout') return { status: 'FAILURE', message: timedOutMessage(ctx.timeoutMs) };
    if (stopped === 'signal') return { status: 'FAILURE', message: STOPPED_MESSAGE };
    if (end.code === 0) return { status: 'SUCCESS' };
    const how = end.code !== null ? `Exited with code ${end.code}` : `Killed by ${end.signal}`;
    return { status: 'FAILURE', message: lastLine ? `${how}: ${lastLine}` : how };
  };
}
