/**
 * Process groups of the script executor's commands (each command leads its
 * own group: `spawn(..., { detached: true })`): whether one still has a live
 * member, and its stop, SIGTERM then SIGKILL (README "Timeouts and
 * cancellation"). POSIX only.
 *
 * A zombie (a member that exited but was not reaped, as an orphan is in a
 * container whose init does not reap) counts as gone: on Linux the members
 * are read from `/proc`; elsewhere any member, zombies too, counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a stop looks whether the group is gone, ms. */
const POLL_MS = 50;

/** Sends `signal` to every process of group `pgid`; false when the group has none left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** `/proc/<pid>/stat`'s state and process group, or undefined when the process is gone. */
function procStat(pid: string): { state: string; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/** Process `pid` is running (not gone, not a zombie). */
export function processAlive(pid: number): boolean {
  if (hasProc) {
    const s = procStat(String(pid));
    return s !== undefined && s.state !== 'Z' && s.state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Group `pgid` has a running member (zombies excepted where `/proc` tells them apart). */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (!hasProc) return true;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = procStat(entry);
    if (s && s.pgrp === pgid && s.state !== 'Z' && s.state !== 'X') return true;
  }
  return false;
}

/** Most time a SIGKILLed group takes to go, ms (it cannot refuse; this is the kernel's time). */
const KILLED_WITHIN_MS = 1_000;

/**
 * Stops group `pgid`: SIGTERM to all its processes, then SIGKILL to those
 * left after `killAfterMs`. Resolves once no member runs (or a second after
 * the SIGKILL).
 */
export async function stopGroup(pgid: number, killAfterMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  let deadline = Date.now() + killAfterMs;
  let killed = false;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) {
      if (killed) return;
      signalGroup(pgid, 'SIGKILL');
      killed = true;
      deadline = Date.now() + KILLED_WITHIN_MS;
    }
    await sleep(POLL_MS);
  }
}
