/**
 * Machine reports of the reference MMA (issue 27 point 2, "Reports"; README
 * "Reports"): after each operation it finished, the MMA runs the `report`
 * script of its configuration for that operation's machine (the operation's
 * `FLEET_*` environment: machine id, name, host, versions) and sends what the
 * script's last stdout line says, as JSON (`{"siteServerStatus": {...},
 * "installedVersions": {"launcher": "master|abc1234"}}`, the contract's
 * `ZMmaMachineReport`), to `POST /mma-agent/machines/{id}/report`. The server
 * shows the status in Server Status, raises the server-status issue of a false
 * flag, and writes installed versions that differ as a new version state.
 *
 * A report never changes the operation: a script that fails, prints no JSON
 * or JSON the contract refuses, or a server that refuses it, is logged as a
 * warning and nothing is sent (or retried); the next operation reports again.
 */
import { ZMmaMachineReport, type TMmaClaimedOperation } from '@fleet/contracts';
import { describeError, type MmaClient } from './client.js';
import type { ScriptExecutorConfig } from './config.js';
import type { MmaLogger } from './logger.js';
import { createScriptExecutor } from './executors/script.js';

/** A report script's default time limit, seconds. */
export const REPORT_TIMEOUT_S = 60;

/** What one report did: sent (and whether the server wrote a version state), or why not. */
export type ReportOutcome = { sent: true; versionStateWritten: boolean } | { sent: false; reason: string };

export interface ReporterOptions {
  config: ScriptExecutorConfig;
  client: MmaClient;
  log: MmaLogger;
  /** The MMA's environment (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** The last line of `lines` that parses as JSON, or undefined. */
function lastJson(lines: readonly string[]): unknown {
  for (const line of [...lines].reverse()) {
    try {
      return JSON.parse(line);
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** A reporter: runs the report script for `operation`'s machine and sends the report (see the module docstring). */
export function createReporter({ config, client, log, env = process.env }: ReporterOptions): (operation: TMmaClaimedOperation, signal?: AbortSignal) => Promise<ReportOutcome> {
  const run = createScriptExecutor({ config, env });
  const timeoutMs = (config.timeoutSeconds ?? REPORT_TIMEOUT_S) * 1000;
  return async (operation, signal = new AbortController().signal) => {
    const fields = { operation: operation.operationId, machine: operation.machine.name };
    const lines: string[] = [];
    const result = await run({ operation, signal, timeoutMs, output: (line) => lines.push(line.trim()), deployerLog: () => undefined });
    const skip = (reason: string): ReportOutcome => {
      log.warn(`No machine report sent: ${reason}`, fields);
      return { sent: false, reason };
    };
    if (result.status === 'FAILURE') return skip(`the report script failed (${result.message ?? 'no message'})`);
    const parsed = ZMmaMachineReport.safeParse(lastJson(lines));
    if (!parsed.success) {
      return skip(`the report script's last JSON line is not a report (${parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ')})`);
    }
    try {
      const answer = await client.report(operation.machine.id, parsed.data, signal);
      log.info('Machine report sent', { ...fields, versionStateWritten: answer.versionStateWritten });
      return { sent: true, versionStateWritten: answer.versionStateWritten };
    } catch (err) {
      return skip(`the server refused it (${(err as { detail?: string }).detail ?? describeError(err)})`);
    }
  };
}
