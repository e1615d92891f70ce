/**
 * The simulated deployer's step scripts (DESIGN §12 Simulation), shared by the
 * server's simulated agent (`engine/operations/simulated-steps.ts`) and the
 * reference MMA's simulated executor (`packages/mma`): for each operation type,
 * the steps a real deployer takes, each with its output line, its deployer log
 * lines and its nominal duration (ms). The runner scales the durations by its
 * delay (`SIM_AGENT_DELAY_MS`: real ms per nominal second), so a default run
 * of a generic UpdateSoftware (about 75 nominal seconds) takes some 15 s, one
 * that knows the machine's installed versions 19 nominal seconds a changed
 * component, and 0 in tests.
 *
 * A subpath of its own (`@fleet/contracts/simulated-steps`), not exported from
 * the index: the console's bundle does not carry it.
 */
import type { TOperationTypeName } from './operations.js';
import { componentLabel, orderedComponents } from './account-sections.js';
import { versionLabel } from './version-label.js';

/** What a script reads of its machine (the server's `EffectMachine` and a claimed operation's `machine` both have it). */
export interface SimulatedMachine {
  name: string;
  /** The active instance's cloud id, or null. */
  cloudId: string | null;
  isLauncher: boolean;
  isSiteMaster: boolean;
  /** Spec 2 §3 sample data set and file (ReinstallSampleData). */
  sampleData: string;
  sampleDataFile: string | null;
  /** What the machine runs (`component → {branch}|{hash}`), when known: a deploy then changes only what differs. */
  installedVersions?: Record<string, string>;
}

/** One step: an output line, deployer log lines, and nominal milliseconds of work. */
export interface SimulatedStep {
  output: string;
  log: string[];
  ms: number;
}

/** A type's script: its steps for machine `m` and the operation's params. */
export type SimulatedScript = (m: SimulatedMachine, params: Record<string, unknown>) => SimulatedStep[];

const str = (v: unknown, fallback: string) => (typeof v === 'string' && v !== '' ? v : fallback);

const connect = (m: SimulatedMachine): SimulatedStep => ({
  output: `Connecting to the deployer on ${m.name}`,
  log: [`deployer: session opened on ${m.name} (instance ${m.cloudId ?? 'unknown'})`, 'deployer: agent protocol 3, TLS 1.3'],
  ms: 2_000,
});

const services = (m: SimulatedMachine) => [...(m.isLauncher ? ['irmn-launcher'] : []), ...(m.isSiteMaster ? ['irmn-sitemaster'] : []), 'irmn-worker'];

const stopServices = (m: SimulatedMachine): SimulatedStep => ({
  output: 'Stopping services',
  log: [...services(m).map((s) => `systemctl stop ${s}`), 'services stopped; connections drained'],
  ms: 8_000,
});

const startServices = (m: SimulatedMachine): SimulatedStep => ({
  output: 'Starting services',
  log: [...services(m).map((s) => `systemctl start ${s}`), 'services started'],
  ms: 10_000,
});

const healthCheck = (m: SimulatedMachine): SimulatedStep => ({
  output: 'Health check',
  log: [`GET https://${m.name}.fleet.example/health -> 200 OK (184 ms)`, 'health: database ok, message queue ok, disk 61% used'],
  ms: 3_000,
});

const deploy = (m: SimulatedMachine, what: string): SimulatedStep[] => [
  connect(m),
  {
    output: `Downloading artifacts (${what})`,
    log: ['artifacts: resolving launcher, sitemaster, worker', 'artifacts: fetched 412 MB in 38.2 s', 'artifacts: sha256 checksums verified'],
    ms: 30_000,
  },
  stopServices(m),
  {
    output: 'Migrating the database',
    log: ['migrate: 3 pending migrations', 'migrate: applied V812__index_audit_changelog (2.1 s)', 'migrate: schema up to date'],
    ms: 20_000,
  },
  startServices(m),
  healthCheck(m),
];

const serviceName = (key: string) => `Irmn${key.charAt(0).toUpperCase()}${key.slice(1)}`;

/**
 * The steps of deploying `target` over `installed` (`component → {branch}|{hash}`) on machine `name`: the plan,
 * a step per changed component in the catalogue's order (19 nominal seconds to replace one, 4 to remove one),
 * then 4 to restart the services. The worker's deploy effect (`engine/desired-state/deploy-effects.ts`) and the
 * reference MMA's simulated executor both play them, so a deploy takes as long down either path.
 */
export function componentDeploySteps(name: string, target: Record<string, string>, installed: Record<string, string>): { steps: SimulatedStep[]; changed: number; unchanged: number } {
  const keys = orderedComponents([...Object.keys(installed), ...Object.keys(target)]);
  const changed = keys.filter((k) => installed[k] !== target[k]);
  const steps: SimulatedStep[] = [
    {
      output: `Deploying to ${name}: ${changed.length} component(s) to change, ${keys.length - changed.length} unchanged`,
      log: [`Deployment plan for ${name}: ${changed.length === 0 ? 'nothing to change' : changed.join(', ')}`],
      ms: 0,
    },
  ];
  for (const key of changed) {
    const from = installed[key];
    const to = target[key];
    if (to === undefined) {
      steps.push({ output: `${componentLabel(key)} removed`, log: [`${key}: stopping service ${serviceName(key)}`, `${key}: uninstalled ${from}`], ms: 4_000 });
      continue;
    }
    const hash = to.slice(to.lastIndexOf('|') + 1);
    steps.push({
      output: `${componentLabel(key)} ${from ? `updated: ${versionLabel(from)} → ${versionLabel(to)}` : `installed: ${versionLabel(to)}`}`,
      log: [
        `${key}: downloading https://builds.fleet.example.net/${key}/commits/${hash}.zip`,
        `${key}: package verified (sha256 ${hash}…)`,
        `${key}: stopping service ${serviceName(key)}`,
        `${key}: installed ${to}${from ? ` (was ${from})` : ' (new)'}`,
        `${key}: service ${serviceName(key)} started; health check 200 OK`,
      ],
      ms: 19_000,
    });
  }
  if (changed.length > 0) steps.push({ output: 'Services restarted', log: ['deployer: services restarted after the deployment'], ms: 4_000 });
  return { steps, changed: changed.length, unchanged: keys.length - changed.length };
}

/** A deploy's script: the component steps over the machine's installed versions, or the generic deploy when those or the target are not known. */
function deployComponents(m: SimulatedMachine, target: unknown, what: string): SimulatedStep[] {
  if (!m.installedVersions || typeof target !== 'object' || target === null) return deploy(m, what);
  return [connect(m), ...componentDeploySteps(m.name, target as Record<string, string>, m.installedVersions).steps];
}

/** The generic script of each type (the types whose effect lives elsewhere fall back to these). */
export const GENERIC_STEPS: Record<TOperationTypeName, SimulatedScript> = {
  UpdateSoftware: (m, p) => deployComponents(m, p.versions, 'desired versions'),
  TestLatestCode: (m, p) => [
    ...deployComponents(m, p.versions, `newest commits of ${str(p.branch, 'master')}`),
    { output: 'Running the smoke test', log: ['smoke: 42 tests', 'smoke: 42 passed, 0 failed'], ms: 25_000 },
  ],
  Backup: (m) => [
    connect(m),
    { output: 'Dumping the launcher database', log: ['pg_dump launcher: 1.2 GB', 'pg_dump launcher: done'], ms: 15_000 },
    { output: 'Dumping the site master database', log: ['mongodump sitemaster: 3.4 GB', 'mongodump sitemaster: done'], ms: 20_000 },
    { output: 'Dumping the audit changelog', log: ['pg_dump audit_changelog: 640 MB', 'pg_dump audit_changelog: done'], ms: 8_000 },
    { output: 'Uploading to the object store', log: ['upload: 3 files, 2.1 GB compressed', 'upload: done'], ms: 15_000 },
  ],
  RestoreBackup: (m) => [
    connect(m),
    { output: 'Downloading backup files', log: ['download: 3 files, 2.1 GB', 'download: checksums verified'], ms: 15_000 },
    stopServices(m),
    { output: 'Restoring the databases', log: ['pg_restore launcher: done', 'mongorestore sitemaster: done'], ms: 30_000 },
    startServices(m),
    healthCheck(m),
  ],
  Populate: (m) => [
    connect(m),
    { output: 'Populating reference data', log: ['populate: 1,284 records written'], ms: 20_000 },
    healthCheck(m),
  ],
  PublishSampleData: (m, p) => [
    connect(m),
    { output: 'Exporting the site master data', log: ['export: 18,402 documents', 'export: done'], ms: 20_000 },
    { output: `Publishing sample data file ${str(p.fileName, 'sample-data')}`, log: ['upload: 380 MB', 'upload: done'], ms: 10_000 },
  ],
  ReinstallSampleData: (m) => [
    connect(m),
    stopServices(m),
    { output: 'Reinstalling sample data', log: [`sample data: ${m.sampleData}${m.sampleDataFile ? ` (${m.sampleDataFile})` : ''}`], ms: 20_000 },
    startServices(m),
  ],
  CreateJumpStartAmi: (m) => [
    connect(m),
    { output: 'Preparing the machine for imaging', log: ['sysprep: generalize', 'sysprep: done'], ms: 20_000 },
  ],
  SmokeTest: (m) => [connect(m), healthCheck(m)],
  ApplyConfig: (m) => [
    connect(m),
    { output: 'Writing the component configuration', log: ['config: /etc/irmn/components.json written (14 keys)'], ms: 2_000 },
    { output: 'Writing the deployer configuration', log: ['config: /etc/irmn/deployer.json written'], ms: 1_000 },
    stopServices(m),
    startServices(m),
    healthCheck(m),
  ],
};
