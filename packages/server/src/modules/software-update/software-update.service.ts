/**
 * The software update service: the validation of an instance settings push, and
 * the updater's software update of many machines or accounts (spec 3 §2.8, §7;
 * rules and writes in `software-update.apply.ts`).
 *
 * Validation (spec 1 §5, §7 `POST /software-update/validate`): what the operator
 * should confirm before the push. It changes nothing. The issues, each with a description:
 *
 * - UnknownVersion: a selected version that is no known commit or build (the push
 *   would answer 400);
 * - BreakingCommit: a newly selected commit marked breaking, with its message;
 * - Downgrade: a selected commit older than the one selected now;
 * - DeployerVersion: a deployer version other than the class default (spec 3 §5);
 * - BranchMismatch: a launcher or site master change leaving them on different branches;
 * - LibraryVersion: a selected main library file of another IRMN version than the image;
 * - MachineNotUpdated: when versions or libraries change, each machine that will
 *   not take them now (needs admin, unmanaged, manual maintenance, stopped or idle).
 *
 * 404 for an unknown or hidden account, 422 for an add-on account.
 */
import {
  CLASS_ADD_ON,
  COMPONENT_LABELS,
  CONFIG_COMPONENTS,
  DEPLOYER_WARNING,
  type TBatchResult,
  type TConfigComponent,
  type TMachineConfig,
  type TRolloutPlan,
  type TSoftwareUpdateConfig,
  type TSoftwareUpdateIssue,
  type ZUpdateAccountsRequest,
  type ZUpdateMachinesRequest,
} from '@fleet/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { badRequest, notFound, unprocessable } from '../../lib/problem.js';
import { loadSoftwareSnapshot } from '../../engine/desired-state/desired-state.repository.js';
import type { AuditService } from '../audit/audit.service.js';
import { planSoftwareUpdate, planTargets, refusedTargets, softwaresSet, writePlanned, type UpdateKind } from './software-update.apply.js';
import { selectAccountWithSettings } from '../account-settings/account-settings.repository.js';
import { normaliseMachineConfig, readMachineConfig } from '../account-settings/account-rules.js';
import * as catalogue from '../catalogues/catalogues.repository.js';
import * as repo from './software-update.repository.js';

const hashOf = (version: string) => version.split('|').pop() ?? '';
const branchOf = (version: string) => (version.includes('|') ? version.split('|')[0]! : '');
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Starts a rollout of a software update (DESIGN §15): the seam between the
 * update routes and the rollout engine. Answers the request's result with its
 * `rolloutId`. Not wired yet: the lead wires the rollout service at merge.
 */
export type RolloutStarter = (opts: {
  principal: Principal;
  kind: UpdateKind;
  config: TSoftwareUpdateConfig;
  targetIds: number[];
  plan: TRolloutPlan;
}) => Promise<TBatchResult>;

const AUDIT_ACTIONS: Record<UpdateKind, string> = { machines: 'UpdateMachinesSoftware', accounts: 'UpdateAccountsSoftware' };

/** The update as the audit's params show it: the softwares and library modes not Skip. */
function updateParams(config: TSoftwareUpdateConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of softwaresSet(config)) {
    out[`${key}VersionMode`] = config[`${key}VersionMode`];
    out[`${key}Version`] = config[`${key}Version`];
  }
  if (config.mainLibraryMode !== 'Skip') Object.assign(out, { mainLibraryMode: config.mainLibraryMode, mainLibraryFiles: config.mainLibraryFiles });
  if (config.accountLibraryMode !== 'Skip') Object.assign(out, { accountLibraryMode: config.accountLibraryMode, accountLibraryFile: config.accountLibraryFile });
  return out;
}

export interface SoftwareUpdateService {
  validate(opts: { principal: Principal; accountId: number; config: TMachineConfig }): Promise<{ issues: TSoftwareUpdateIssue[] }>;
  /**
   * `POST /software-update/update-machines` (spec 3 §2.8, §7): the machines'
   * version overrides. 400 for library modes other than Skip (libraries are per
   * account), 404 naming unknown or hidden machines, 422 naming refused ones
   * (being terminated, a version that does not resolve); a dry run answers the
   * changes and writes nothing. One `UpdateMachinesSoftware` activity.
   */
  updateMachines(opts: { principal: Principal; body: z.output<typeof ZUpdateMachinesRequest> }): Promise<TBatchResult>;
  /**
   * `POST /software-update/update-accounts` (spec 3 §2.8, §7): the accounts'
   * instance settings versions and library files, validated as the push. 404
   * naming unknown or hidden accounts, 422 naming refused ones (add-on accounts,
   * the push's rules); a dry run writes nothing. One `UpdateAccountsSoftware` activity.
   */
  updateAccounts(opts: { principal: Principal; body: z.output<typeof ZUpdateAccountsRequest> }): Promise<TBatchResult>;
}

export function createSoftwareUpdateService({ db, audit, startRollout }: { db: Db; audit: AuditService; startRollout?: RolloutStarter }): SoftwareUpdateService {
  /** The frame of both update calls: rollout seam, dry run, or one transaction (plan, 422, audit, write). */
  async function update(principal: Principal, kind: UpdateKind, targetIds: number[], dryRun: boolean, plan: TRolloutPlan | null, config: TSoftwareUpdateConfig): Promise<TBatchResult> {
    const o = { principal, kind, config, targetIds };
    if (dryRun) {
      const targets = await planSoftwareUpdate(db, o);
      const refused = targets.filter((t) => t.refused !== null).length;
      const changed = targets.filter((t) => t.refused === null && t.changes.length > 0).length;
      return { dryRun: true, targets, changed, refused, activityId: null, rolloutId: null };
    }
    // ROLLOUT SEAM (issue 13): a rollout hands over to the rollout engine, which applies wave by wave
    // with applySoftwareUpdate. Until the lead wires `startRollout` in app.ts, rollouts are refused.
    if (plan !== null) {
      if (!startRollout) throw unprocessable('Rollouts are not available');
      return startRollout({ ...o, plan });
    }
    return db.transaction(async (tx) => {
      const snapshot = await loadSoftwareSnapshot(tx);
      const planned = await planTargets(tx, { ...o, lock: true, snapshot });
      const targets = planned.map((p) => p.result);
      const refused = refusedTargets(kind, targetIds, targets);
      if (refused) throw refused;
      const changed = planned.filter((p) => p.result.changes.length > 0);
      if (changed.length === 0) return { dryRun: false, targets, changed: 0, refused: 0, activityId: null, rolloutId: null };
      const accounts = [...new Map(changed.map((p) => [p.account.id, p.account])).values()].sort((a, b) => a.id - b.id);
      const activityId = await audit.record(tx, {
        action: AUDIT_ACTIONS[kind],
        user: principal.username,
        accounts,
        params: { [kind === 'machines' ? 'machineIds' : 'accountIds']: targetIds, update: updateParams(config) },
        changes: changed.flatMap((p) => p.auditChanges),
      });
      await writePlanned(tx, { kind, config, planned, activityId, snapshot });
      return { dryRun: false, targets, changed: changed.length, refused: 0, activityId, rolloutId: null };
    });
  }

  return {
    async updateMachines({ principal, body }) {
      const { machines, dryRun, rollout, ...config } = body;
      const errors = (['mainLibraryMode', 'accountLibraryMode'] as const)
        .filter((field) => config[field] !== 'Skip')
        .map((field) => ({ propertyName: field, errorMessage: 'Library files are set per account: use account mode', attemptedValue: config[field] }));
      if (errors.length > 0) throw badRequest(errors);
      return update(principal, 'machines', machines, dryRun, rollout, config);
    },

    async updateAccounts({ principal, body }) {
      const { accounts, dryRun, rollout, ...config } = body;
      return update(principal, 'accounts', accounts, dryRun, rollout, config);
    },

    async validate({ principal, accountId, config: sent }) {
      const loaded = await selectAccountWithSettings(db, accountId, { hiddenClassIds: hiddenClassIds(principal) });
      if (!loaded) throw notFound(`Account ${accountId}`);
      if (loaded.account.classId === CLASS_ADD_ON) throw unprocessable('Add-on accounts have no instance settings');
      const config = normaliseMachineConfig(sent);
      const stored = readMachineConfig(loaded.settings.machineConfig, { autoStopTime: null, vmImageName: loaded.account.vmImageName ?? '' });
      const selected = (c: TMachineConfig, key: TConfigComponent) => (c[`${key}VersionMode`] === 'Select' ? c[`${key}Version`] : '');

      const hashes = CONFIG_COMPONENTS.flatMap((k) => [selected(config, k), selected(stored, k)]).filter((v) => v && !v.includes('://')).map(hashOf);
      const urls = CONFIG_COMPONENTS.map((k) => selected(config, k)).filter((v) => v.includes('://'));
      const [commits, builds, machineRows, files, image] = await Promise.all([
        repo.selectCommitFacts(db, [...new Set(hashes)]),
        catalogue.selectKnownBuilds(db, urls),
        repo.selectAccountMachines(db, accountId),
        repo.selectLibraryFiles(db, config.mainLibraryMode === 'Select' ? config.mainLibraryFiles : []),
        catalogue.selectImage(db, config.vmImageName || stored.vmImageName),
      ]);
      const commit = (key: string, version: string) => commits.find((c) => c.software === key && (c.shortHash === hashOf(version) || c.fullHash === hashOf(version)));

      const issues: TSoftwareUpdateIssue[] = [];
      let versionsChange = JSON.stringify(config.mainLibraryFiles) !== JSON.stringify(stored.mainLibraryFiles) || config.mainLibraryMode !== stored.mainLibraryMode;
      for (const key of CONFIG_COMPONENTS) {
        const label = COMPONENT_LABELS[key];
        const [mode, version] = [config[`${key}VersionMode`], config[`${key}Version`]];
        const changed = mode !== stored[`${key}VersionMode`] || version !== stored[`${key}Version`];
        versionsChange ||= changed;
        if (key === 'deployer' && mode !== 'None' && changed) issues.push({ kind: 'DeployerVersion', description: DEPLOYER_WARNING });
        if (mode !== 'Select') continue;
        if (version.includes('://')) {
          if (!builds.has(`${key}/${version}`)) issues.push({ kind: 'UnknownVersion', description: `${label} version ${version} is not a known build` });
          continue;
        }
        const next = commit(key, version);
        if (!next) {
          issues.push({ kind: 'UnknownVersion', description: `${label} version ${version} is not a known commit` });
          continue;
        }
        if (!changed) continue;
        if (next.isBreaking) {
          issues.push({ kind: 'BreakingCommit', description: `${label} commit ${next.shortHash} is breaking${next.breakingMsg ? `: ${next.breakingMsg}` : ''}` });
        }
        const previous = selected(stored, key) && !selected(stored, key).includes('://') ? commit(key, selected(stored, key)) : undefined;
        if (previous && next.timestamp < previous.timestamp) {
          issues.push({
            kind: 'Downgrade',
            description: `${label} goes back from ${previous.shortHash} (${day(previous.timestamp)}) to ${next.shortHash} (${day(next.timestamp)})`,
          });
        }
      }
      const [launcherBranch, siteMasterBranch] = [branchOf(config.launcherVersion), branchOf(config.siteMasterVersion)];
      const pairChanged = config.launcherVersion !== stored.launcherVersion || config.siteMasterVersion !== stored.siteMasterVersion;
      if (pairChanged && launcherBranch && siteMasterBranch && launcherBranch !== siteMasterBranch) {
        issues.push({ kind: 'BranchMismatch', description: `Launcher follows ${launcherBranch} and Site Master follows ${siteMasterBranch}` });
      }
      if (image?.irmnVersion) {
        for (const f of files) {
          if (f.version !== image.irmnVersion) {
            issues.push({ kind: 'LibraryVersion', description: `Main library file ${f.name} is for IRMN ${f.version}; the image runs IRMN ${image.irmnVersion}` });
          }
        }
      }
      if (versionsChange) {
        for (const m of machineRows) {
          const why = m.needsAdmin
            ? 'needs admin attention; it will not be updated until its failure state is reset'
            : !m.managed
              ? 'is unmanaged; it will not be updated until it is managed again'
              : m.manualMaintenance
                ? 'is in manual maintenance; it will not be updated until maintenance ends'
                : m.stop || m.idle
                  ? 'is stopped; it will be updated when it starts'
                  : null;
          if (why) issues.push({ kind: 'MachineNotUpdated', description: `Machine ${m.name} ${why}` });
        }
      }
      return { issues };
    },
  };
}
