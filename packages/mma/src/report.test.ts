/**
 * The reference MMA's machine reports (`report.ts`) with a recording client:
 * the last JSON line of the report script is sent for the operation's machine;
 * a failing script, a script printing no report, a report the contract refuses
 * or a server refusing it sends nothing and says why.
 */
import { describe, expect, it } from 'vitest';
import type { TMmaMachineReport } from '@fleet/contracts';
import { HttpError, type MmaClient } from './client.js';
import { createMemoryLogger } from './logger.js';
import { createReporter } from './report.js';
import { claimed } from './testing.js';

const STATUS = { status: 'Healthy', operational: true, diskSpaceOk: true, interServerCommOk: true, libraryImportOk: true, mongoOk: true, rabbitMqOk: true };

function reporter(command: string, answer: (body: TMmaMachineReport) => Promise<unknown> = async () => ({ machineId: 7, reportedAt: '2026-11-29T10:00:00Z', versionStateWritten: true })) {
  const sent: { machineId: number; body: TMmaMachineReport }[] = [];
  const client = {
    report: async (machineId: number, body: TMmaMachineReport) => {
      sent.push({ machineId, body });
      return answer(body);
    },
  } as unknown as MmaClient;
  const log = createMemoryLogger();
  return { report: createReporter({ config: { kind: 'script', shell: 'bash', command }, client, log, env: { PATH: process.env.PATH } }), sent, log };
}

describe('machine reports', () => {
  it("sends the script's last JSON line for the operation's machine, with its environment", async () => {
    const r = reporter(`echo "looking at $FLEET_MACHINE_NAME"; echo '{"bogus": 1}'; echo '{"siteServerStatus": ${JSON.stringify(STATUS)}, "installedVersions": {"launcher": "'$FLEET_VERSION_LAUNCHER'"}}'; echo done`);
    expect(await r.report(claimed())).toEqual({ sent: true, versionStateWritten: true });
    expect(r.sent).toEqual([{ machineId: 7, body: { siteServerStatus: STATUS, installedVersions: { launcher: 'master|abc1234' } } }]);
  });

  it('sends nothing when the script fails, prints no report, or prints one the contract refuses', async () => {
    const failing = reporter('echo "mongo unreachable" >&2; exit 2');
    expect(await failing.report(claimed())).toEqual({ sent: false, reason: 'the report script failed (Exited with code 2: mongo unreachable)' });
    const silent = reporter('echo "nothing to say"');
    expect(await silent.report(claimed())).toMatchObject({ sent: false, reason: expect.stringMatching(/^the report script's last JSON line is not a report/) });
    const empty = reporter(`echo '{}'`);
    expect(await empty.report(claimed())).toMatchObject({ sent: false, reason: expect.stringContaining('Report siteServerStatus, installedVersions or both') });
    for (const r of [failing, silent, empty]) {
      expect(r.sent).toEqual([]);
      expect(r.log.lines.some((l) => l.startsWith('warn  No machine report sent'))).toBe(true);
    }
  });

  it('says why when the server refuses the report', async () => {
    const r = reporter(`echo '{"installedVersions": {"launcher": "master|0000000"}}'`, async () => {
      throw new HttpError(422, 'The catalogue knows no commit for launcher (master|0000000): nothing was recorded', 'report');
    });
    expect(await r.report(claimed())).toEqual({
      sent: false,
      reason: 'the server refused it (The catalogue knows no commit for launcher (master|0000000): nothing was recorded)',
    });
  });
});
