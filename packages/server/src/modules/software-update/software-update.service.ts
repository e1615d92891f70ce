/**
 * Validation of an instance settings push (spec 1 §5, §7 `POST
 * /software-update/validate`): what the operator should confirm before the push.
 * It changes nothing. The issues, each with a description:
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
  type TConfigComponent,
  type TMachineConfig,
  type TSoftwareUpdateIssue,
} from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { notFound, unprocessable } from '../../lib/problem.js';
import { selectAccountWithSettings } from '../account-settings/account-settings.repository.js';
import { normaliseMachineConfig, readMachineConfig } from '../account-settings/account-rules.js';
import * as catalogue from '../catalogues/catalogues.repository.js';
import * as repo from './software-update.repository.js';

const hashOf = (version: string) => version.split('|').pop() ?? '';
const branchOf = (version: string) => (version.includes('|') ? version.split('|')[0]! : '');
const day = (d: Date) => d.toISOString().slice(0, 10);

export interface SoftwareUpdateService {
  validate(opts: { principal: Principal; accountId: number; config: TMachineConfig }): Promise<{ issues: TSoftwareUpdateIssue[] }>;
}

export function createSoftwareUpdateService({ db }: { db: Db }): SoftwareUpdateService {
  return {
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
