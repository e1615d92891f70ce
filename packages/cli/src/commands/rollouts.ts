/**
 * `fleet rollouts …` (issue 28 point 4; DESIGN §15–§16):
 *
 *   fleet rollouts list [--limit n]                                     GET /rollouts
 *   fleet rollouts start --machines 1,2,3 --launcher latest [--waves 1,10%] [--approval perWave] [--dry-run]
 *                                                                       POST /software-update/update-machines
 *   fleet rollouts watch <id> [--interval s]                            GET /rollouts/{id}, until it ends
 *   fleet rollouts pause|resume|abort <id>                              POST /rollouts/{id}/…
 *
 * A component's version is `latest`, `latest-build`, `none` or a version as
 * the API takes it (`branch|hash`); a component not given is left as it is.
 * `watch` prints a line whenever the rollout's status, wave or counts change,
 * exits 0 when it Completed, 1 when it Halted (its reason on stderr) or was
 * Aborted.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { CONFIG_COMPONENTS } from '@fleet/contracts';
import type { paths } from '../api/fleet-api.js';
import { CliError, data, EXIT, signedIn } from '../client.js';
import { out, printJson, printList } from '../output.js';
import { formatOf, parseId, parseIdList, wholeNumber } from './shared.js';

type UpdateMachines = NonNullable<paths['/api/v1/software-update/update-machines']['post']['requestBody']>['content']['application/json'];
type Wave = NonNullable<NonNullable<UpdateMachines['rollout']>['waves']>[number];

/** `1,10%,50%` → waves of 1 machine, then 10 %, then 50 % of the targets. */
export function parseWaves(value: string): Wave[] {
  return value.split(',').map((w) => {
    const m = /^\s*(\d+(?:\.\d+)?)(%?)\s*$/.exec(w);
    if (!m) throw new InvalidArgumentError(`'${w}' is not a wave: a count (5) or a percentage (10%)`);
    const n = Number(m[1]);
    if (m[2] === '%') {
      if (n < 0.1 || n > 100) throw new InvalidArgumentError(`'${w}': a wave's percentage is from 0.1% to 100%`);
      return { kind: 'percent', value: n };
    }
    if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new InvalidArgumentError(`'${w}': a wave's count is a whole number from 1 to 10000`);
    return { kind: 'count', value: n };
  });
}

/** `launcher` → `--launcher`, `siteMaster` → `--site-master`. */
const flagOf = (component: string) => `--${component.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** A component's version option → the API's mode and version. */
function versionChoice(value: string): { mode: 'Latest' | 'LatestBuild' | 'None' | 'Select'; version: string } {
  if (value === 'latest') return { mode: 'Latest', version: '' };
  if (value === 'latest-build') return { mode: 'LatestBuild', version: '' };
  if (value === 'none') return { mode: 'None', version: '' };
  return { mode: 'Select', version: value };
}

const ENDED = ['Completed', 'Aborted'];

export function addRolloutCommands(program: Command): void {
  const rollouts = program.command('rollouts').description('Rollouts: software updates of many machines in waves');

  rollouts
    .command('list')
    .description('Rollouts, newest first, with their counts of targets')
    .option('--limit <n>', 'rows at most (1 to 100)', wholeNumber(1, 100), 20)
    .action(async (opts: { limit: number }, command: Command) => {
      const { client } = await signedIn();
      const page = await data(client.GET('/api/v1/rollouts', { params: { query: { limit: opts.limit } } }));
      printList(formatOf(command), page, page.items, [
        { header: 'Id', value: (r) => r.id },
        { header: 'Status', value: (r) => r.status },
        { header: 'Wave', value: (r) => r.currentWave + 1 },
        { header: 'By', value: (r) => r.createdBy },
        { header: 'Created', value: (r) => r.createdAt },
        { header: 'Targets', value: (r) => Object.entries(r.counts).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ') },
      ]);
    });

  const start = rollouts
    .command('start')
    .description("Update machines' versions in waves (a rollout); the first wave starts at once")
    .requiredOption('--machines <ids>', 'machine ids, comma separated', parseIdList)
    .option('--waves <waves>', 'wave sizes: counts and percentages, comma separated', parseWaves)
    .addOption(new Option('--approval <when>', 'who approves each wave').choices(['none', 'perWave', 'firstWaveOnly']))
    .option('--max-failed <n>', 'failed targets that halt the rollout', wholeNumber(0, 10_000))
    .option('--bake <minutes>', 'minutes each wave bakes (probes watched) before the next', wholeNumber(0, 1440))
    .option('--dry-run', 'say what would change, change nothing');
  for (const component of CONFIG_COMPONENTS) start.option(`${flagOf(component)} <version>`, `${component}: latest, latest-build, none or branch|hash`);
  start.action(async (opts: Record<string, unknown> & { machines: number[]; waves?: Wave[]; approval?: 'none' | 'perWave' | 'firstWaveOnly'; maxFailed?: number; bake?: number; dryRun?: boolean }, command: Command) => {
    const versions: Record<string, string> = {};
    for (const component of CONFIG_COMPONENTS) {
      const given = opts[component];
      if (typeof given !== 'string') continue;
      const { mode, version } = versionChoice(given);
      versions[`${component}VersionMode`] = mode;
      versions[`${component}Version`] = version;
    }
    if (Object.keys(versions).length === 0) throw new CliError(`Say which versions: one or more of ${CONFIG_COMPONENTS.slice(0, 3).map(flagOf).join(', ')}, … (fleet rollouts start --help)`, EXIT.usage);
    const body = {
      ...versions,
      machines: opts.machines,
      dryRun: opts.dryRun === true,
      rollout: { waves: opts.waves, approval: opts.approval, maxFailedTargets: opts.maxFailed, bakeMinutes: opts.bake },
    } as UpdateMachines;
    const { client } = await signedIn();
    const answer = await data(client.POST('/api/v1/software-update/update-machines', { body }));
    if (formatOf(command) === 'json') return printJson(answer);
    if (answer.dryRun) {
      for (const t of answer.targets) out(`${t.name} (${t.id}): ${t.refused ?? (t.changes.map((c) => `${c.field} → ${String(c.newValue)}`).join(', ') || 'no change')}`);
      return;
    }
    out(answer.rolloutId ? `Started rollout ${answer.rolloutId} of ${answer.changed} machines: fleet rollouts watch ${answer.rolloutId}` : `Changed ${answer.changed} machines`);
  });

  rollouts
    .command('watch')
    .description('Follow a rollout until it ends: a line at each change; exit 0 Completed, 1 Halted or Aborted')
    .argument('<id>', 'the rollout', parseId)
    .option('--interval <seconds>', 'seconds between looks', wholeNumber(1, 60), 2)
    .action(async (id: number, opts: { interval: number }, command: Command) => {
      const { client } = await signedIn();
      let last = '';
      for (;;) {
        const r = await data(client.GET('/api/v1/rollouts/{id}', { params: { path: { id } } }));
        const counts = Object.entries(r.counts).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
        const line = `${r.status} wave ${r.currentWave + 1} of ${r.waves.length}: ${counts}${r.waitingFor ? `; waiting for ${r.waitingFor}` : ''}`;
        if (line !== last) {
          if (formatOf(command) === 'json') printJson(r);
          else out(`${new Date().toISOString()} rollout ${id} ${line}`);
          last = line;
        }
        if (r.status === 'Completed') return;
        if (r.status === 'Halted' || r.status === 'Aborted') throw new CliError(`Rollout ${id} ${r.status}${r.reason ? `: ${r.reason}` : ''}`, EXIT.refused);
        if (ENDED.includes(r.status)) return;
        await new Promise((resolve) => setTimeout(resolve, opts.interval * 1000));
      }
    });

  for (const verb of ['pause', 'resume', 'abort'] as const) {
    rollouts
      .command(verb)
      .description(`${verb[0]!.toUpperCase()}${verb.slice(1)} a rollout`)
      .argument('<id>', 'the rollout', parseId)
      .action(async (id: number, _opts: unknown, command: Command) => {
        const { client } = await signedIn();
        const path = `/api/v1/rollouts/{id}/${verb}` as const;
        const answer = await data(client.POST(path, { params: { path: { id } } }));
        if (formatOf(command) === 'json') return printJson(answer);
        out(`Rollout ${id}: ${verb === 'abort' ? 'aborted' : verb === 'pause' ? 'paused' : 'resumed'}`);
      });
  }
}
