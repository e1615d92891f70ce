/**
 * The MMA's configuration file (YAML; README "Configuration"), validated with
 * zod so that every mistake is named with its path (`executors.UpdateSoftware.command: …`):
 *
 * - `concurrency`: operations run at once (1–64, default 4): a claim asks for
 *   the free slots only.
 * - `heartbeatSeconds`: seconds between heartbeats (default 5; at most 30, half
 *   the server's lease of {@link MMA_LEASE_S_DEFAULT} s).
 * - `shutdownGraceSeconds`: on SIGINT/SIGTERM, how long running operations may
 *   go on before they are stopped (default 30).
 * - `host`: the host name the MMA registers with (default `os.hostname()`).
 * - `executors`: what runs each operation type (the contracts' type names, or
 *   `default` for the others): a `script` (a command, its shell, timeout,
 *   environment and working directory) or `simulated` (the simulated deployer's
 *   steps, `@fleet/contracts/simulated-steps`).
 * - `report`: a script executor run after each operation the MMA finished,
 *   with that operation's `FLEET_*` environment, whose last stdout line is the
 *   machine's report (JSON: `siteServerStatus`, `installedVersions`; README
 *   "Reports"); `timeoutSeconds` defaults to 60.
 *
 * Unknown keys are errors (a misspelt `timeoutSecond` would otherwise be
 * silently ignored).
 */
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { HOST_NAME_MESSAGE, HOST_NAME_PATTERN, MMA_CLAIM_MAX_OPERATIONS, MMA_LEASE_S_DEFAULT, OPERATION_TYPE_NAMES, type TOperationTypeName } from '@fleet/contracts';

/** The key of the executor that runs the types without one of their own. */
export const DEFAULT_EXECUTOR = 'default';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A command run for each operation (README "Script executors"). */
export const ZScriptExecutor = z
  .strictObject({
    kind: z.literal('script'),
    /** A string is run by `shell` (default `sh`); a list is the program and its arguments, run without a shell. */
    command: z.union([z.string().trim().min(1, 'The command is empty'), z.array(z.string().min(1, 'An argument is empty')).min(1, 'The command is empty')], {
      error: 'Give the command as a string (run by the shell) or as a list of the program and its arguments',
    }),
    shell: z.enum(['bash', 'sh', 'pwsh']).optional(),
    /** Longest run, seconds; the operation's own timeout (the claim's remainingMs) applies too: the shorter wins. */
    timeoutSeconds: z.number().positive().max(7 * 24 * 3600).optional(),
    /** Variables added to the MMA's environment (the FLEET_* ones are the MMA's to set). */
    env: z
      .record(
        z
          .string()
          .regex(ENV_NAME, 'An environment variable name is letters, digits and underscores, not starting with a digit')
          .refine((k) => !k.startsWith('FLEET_'), 'FLEET_* variables are set by the MMA for each operation'),
        z.string(),
      )
      .optional(),
    /** The working directory (default: the MMA's). */
    cwd: z.string().min(1).optional(),
  })
  .refine((e) => !(e.shell && Array.isArray(e.command)), {
    message: 'shell applies to a command given as a string; a list of arguments runs without a shell',
    path: ['shell'],
  });
export type ScriptExecutorConfig = z.infer<typeof ZScriptExecutor>;

/** The simulated deployer (README "Simulated executor"). */
export const ZSimulatedExecutor = z.strictObject({
  kind: z.literal('simulated'),
  /** Real milliseconds per nominal second of work (default 200; the environment's SIM_AGENT_DELAY_MS wins). */
  delayMs: z.number().min(0).max(60_000).optional(),
  /** Machines (by name) whose every operation fails 'Simulated failure'. */
  failMachines: z.array(z.string().min(1)).optional(),
});
export type SimulatedExecutorConfig = z.infer<typeof ZSimulatedExecutor>;

export const ZExecutor = z.discriminatedUnion('kind', [ZScriptExecutor, ZSimulatedExecutor], {
  error: (issue) => (issue.code === 'invalid_union' ? "kind must be 'script' or 'simulated'" : undefined),
});
export type ExecutorConfig = z.infer<typeof ZExecutor>;

const EXECUTOR_KEYS: readonly string[] = [...OPERATION_TYPE_NAMES, DEFAULT_EXECUTOR];

export const ZMmaConfig = z.strictObject({
  concurrency: z.number().int().min(1).max(MMA_CLAIM_MAX_OPERATIONS).default(4),
  heartbeatSeconds: z
    .number()
    .positive()
    .max(MMA_LEASE_S_DEFAULT / 2)
    .default(5),
  shutdownGraceSeconds: z.number().min(0).max(3600).default(30),
  host: z.string().trim().min(1).max(253).regex(HOST_NAME_PATTERN, HOST_NAME_MESSAGE).optional(),
  executors: z
    .record(
      z.string().refine((key) => EXECUTOR_KEYS.includes(key), {
        error: (issue) => `${String(issue.input)} is not an operation type (${OPERATION_TYPE_NAMES.join(', ')}) nor ${DEFAULT_EXECUTOR}`,
      }),
      ZExecutor,
    )
    .default({}),
  report: ZScriptExecutor.optional(),
});
export type MmaConfig = z.infer<typeof ZMmaConfig>;

/** A configuration that could not be read or is invalid: `problems` names each one (`path: message`). */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`Invalid configuration ${file}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** `issue.path` as `executors.UpdateSoftware.command`, or `(top level)`. */
const where = (path: readonly PropertyKey[]) => (path.length === 0 ? '(top level)' : path.map(String).join('.'));

/**
 * Parses and validates the YAML `text` of configuration `file` (the name is
 * for the messages). An empty file is an empty configuration (defaults, no
 * executors). Throws {@link ConfigError} naming every YAML error (with its
 * line and column) or every invalid field (with its path).
 */
export function parseConfig(text: string, file: string): MmaConfig {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) throw new ConfigError(file, doc.errors.map((e) => e.message.split('\n')[0]!.replace(/:$/, '')));
  const result = ZMmaConfig.safeParse(doc.toJS() ?? {});
  if (!result.success) {
    // A record's key error holds its reason inside.
    const message = (i: z.core.$ZodIssue) => (i.code === 'invalid_key' ? i.issues.map((k) => k.message).join('; ') : i.message);
    throw new ConfigError(file, result.error.issues.map((i) => `${where(i.path)}: ${message(i)}`));
  }
  return result.data;
}

/** Reads and validates configuration `file` ({@link parseConfig}); a file that cannot be read is a {@link ConfigError} too. */
export async function loadConfig(file: string): Promise<MmaConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(file, [`cannot read it: ${(err as Error).message}`]);
  }
  return parseConfig(text, file);
}

/** The executor of operation type `typeName`: its own, else `default`, else undefined. */
export function executorFor(config: MmaConfig, typeName: TOperationTypeName): ExecutorConfig | undefined {
  return config.executors[typeName] ?? config.executors[DEFAULT_EXECUTOR];
}
