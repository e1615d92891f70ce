/**
 * One account and the push of each of its sections (spec 1 §2 Edit account, §3,
 * §4, §5, §8; DESIGN §5): account detail, Push Account Properties, License,
 * Instance, Backup Settings and Idle Schedule.
 *
 * Each push runs in one transaction that locks the account and its settings row:
 * 404 when the account is unknown or hidden (Customer Production without the
 * group), 422 for an instance, backup or idle push to an add-on account (class
 * 200 has none), 409 when the section's `version` is not the current one (the
 * detail names who pushed it last and when, from the audit log), 400 with every
 * field error of the rules, then the write with `version + 1` and the audit
 * activity (PushAccountProperties, PushLicenseSettings, PushInstanceSettings,
 * PushBackupSettings, PushIdleSchedule) with field-level changes.
 *
 * Pushing instance settings also resolves the account's machines' desired
 * versions in the same transaction (`engine/desired-state`); deploying them is
 * the deploy controller's work.
 *
 * Known limitations: executing schedules is the engine's work. An
 * instance policy change does not re-plan existing machines; a URL name change
 * does not rename existing site domains.
 */
import {
  CLASS_ADD_ON,
  flatContactAndBilling,
  className,
  launcherUrl,
  PROVIDER_DOMAIN,
  type TAccountDetail,
  type TAccountPropertiesResponse,
  type TAuditChange,
  type TFieldError,
  type TBackupSettings,
  type TIdleScheduleSettings,
  type TInstanceSettings,
  type TLicenseSettings,
  type TMachineStatusCounts,
  ZPushAccountPropertiesRequest,
  ZPushBackupSettingsRequest,
  ZPushIdleScheduleRequest,
  ZPushInstanceSettingsRequest,
  ZPushLicenseSettingsRequest,
} from '@fleet/contracts';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { HttpProblem, badRequest, conflict, notFound, unprocessable } from '../../lib/problem.js';
import { diffChanges, type AuditService } from '../audit/audit.service.js';
import * as catalogue from '../catalogues/catalogues.repository.js';
import * as repo from './account-settings.repository.js';
import { applyDesiredState } from '../../engine/desired-state/desired-state.js';
import {
  checkClassAndParent,
  checkLicense,
  checkMachineConfig,
  normaliseBackup,
  normaliseIdleSchedules,
  normaliseLicense,
  normaliseMachineConfig,
  normaliseProperties,
  readBackup,
  readLicense,
  readMachineConfig,
} from './account-rules.js';

type Loaded = NonNullable<Awaited<ReturnType<typeof repo.selectAccountWithSettings>>>;
type Section = 'properties' | 'license' | 'instance' | 'backup' | 'idle';

const SECTIONS: Record<Section, { action: string; label: string; addOn: boolean }> = {
  properties: { action: 'PushAccountProperties', label: 'Account properties', addOn: true },
  license: { action: 'PushLicenseSettings', label: 'License settings', addOn: true },
  instance: { action: 'PushInstanceSettings', label: 'Instance settings', addOn: false },
  backup: { action: 'PushBackupSettings', label: 'Backup settings', addOn: false },
  idle: { action: 'PushIdleSchedule', label: 'Idle schedule', addOn: false },
};

/**
 * 409 for a URL name another live account uses. Unlike a stale version, it names
 * the field (`errors[0].propertyName` 'urlFriendlyName'), so that a form shows it there.
 */
function urlNameTaken(urlFriendlyName: string): HttpProblem {
  const detail = `Account URL name '${urlFriendlyName}' is already used by another account`;
  return conflict(detail, [{ propertyName: 'urlFriendlyName', errorMessage: detail, attemptedValue: urlFriendlyName }]);
}

const EMPTY_COUNTS: TMachineStatusCounts = { machines: 0, needsAdmin: 0, unmanaged: 0, manualMaintenance: 0, stopped: 0, turbo: 0, obsolete: 0, idle: 0 };

function versionOf({ account, settings }: Loaded, section: Section): number {
  return {
    properties: account.propertiesVersion,
    license: settings.licenseVersion,
    instance: settings.instanceVersion,
    backup: settings.backupVersion,
    idle: settings.idleVersion,
  }[section];
}

/** The account's properties section as the Account Properties card shows it. */
export function propertiesOf(a: repo.AccountRow) {
  return {
    classId: a.classId,
    parentId: a.parentId,
    name: a.name,
    urlFriendlyName: a.urlFriendlyName,
    description: a.description,
    customer: a.customer,
    contact: { name: a.contactName, email: a.contactEmail, phone1: a.contactPhone1, phone2: a.contactPhone2 },
    maintainer: a.maintainer,
    billing: { period: a.billingPeriod as 'Biweekly' | 'Monthly' | 'Yearly', amount: a.billingAmount },
    managed: a.managed,
    whiteGlove: a.whiteGlove,
    autoTest: a.autoTest,
    autoTestBranch: a.autoTestBranch,
  };
}

type Properties = ReturnType<typeof propertiesOf>;

/** Properties as flat fields, for field-level audit changes. */
const flatProperties = ({ contact, billing, ...p }: Properties) => ({ ...p, ...flatContactAndBilling(contact, billing) });

const licenseOf = ({ account, settings }: Loaded) =>
  readLicense(settings.licenseConfig, { instancePolicy: account.instancePolicy, expirationTime: account.expirationTime?.toISOString() ?? null });
const machineConfigOf = ({ account, settings }: Loaded) =>
  readMachineConfig(settings.machineConfig, { autoStopTime: null, vmImageName: account.vmImageName ?? '', bundleVersion: account.bundleVersion });

export interface AccountSettingsService {
  /** `GET /accounts/{id}` (spec 1 §3 Account). */
  detail(opts: { principal: Principal; accountId: number }): Promise<TAccountDetail>;
  pushProperties(opts: { principal: Principal; accountId: number; body: z.output<typeof ZPushAccountPropertiesRequest> }): Promise<TAccountPropertiesResponse>;
  pushLicense(opts: { principal: Principal; accountId: number; body: z.output<typeof ZPushLicenseSettingsRequest> }): Promise<TLicenseSettings>;
  /** `GET /accounts/{id}/instance-settings`; 422 for add-on accounts. */
  instanceSettings(opts: { principal: Principal; accountId: number }): Promise<TInstanceSettings>;
  pushInstance(opts: { principal: Principal; accountId: number; body: z.output<typeof ZPushInstanceSettingsRequest> }): Promise<TInstanceSettings>;
  pushBackup(opts: { principal: Principal; accountId: number; body: z.output<typeof ZPushBackupSettingsRequest> }): Promise<TBackupSettings>;
  pushIdle(opts: { principal: Principal; accountId: number; body: z.output<typeof ZPushIdleScheduleRequest> }): Promise<TIdleScheduleSettings>;
}

export function createAccountSettingsService({ db, audit }: { db: Db; audit: AuditService }): AccountSettingsService {
  const load = async (tx: Db | Tx, principal: Principal, accountId: number, forUpdate: boolean) => {
    const loaded = await repo.selectAccountWithSettings(tx, accountId, { hiddenClassIds: hiddenClassIds(principal), forUpdate });
    if (!loaded) throw notFound(`Account ${accountId}`);
    return loaded;
  };

  const noSection = (section: Section) => unprocessable(`Add-on accounts have no ${SECTIONS[section].label.toLowerCase()}`);

  /**
   * The frame of every push: lock, class-200 check, version check, then `apply`
   * (rules and write), the version bump and the audit activity.
   */
  async function push<R>(opts: {
    principal: Principal;
    accountId: number;
    section: Section;
    version: number;
    apply: (tx: Tx, loaded: Loaded, next: number) => Promise<{ response: R; changes: TAuditChange[]; name?: string }>;
    /** Runs after the audit activity is recorded, in the same transaction (the activity is the cause of what it does). */
    afterAudit?: (tx: Tx, activityId: number) => Promise<void>;
  }): Promise<R> {
    const { section } = opts;
    return db.transaction(async (tx) => {
      const loaded = await load(tx, opts.principal, opts.accountId, true);
      if (!SECTIONS[section].addOn && loaded.account.classId === CLASS_ADD_ON) throw noSection(section);
      const current = versionOf(loaded, section);
      if (opts.version !== current) {
        const last = await repo.selectLatestActivity(tx, opts.accountId, SECTIONS[section].action);
        const who = last ? `${last.user} at ${last.time.toISOString()}` : 'another push';
        throw conflict(
          `${SECTIONS[section].label} of account ${loaded.account.name} changed since you loaded them: last pushed by ${who} ` +
            `(version ${current}, yours ${opts.version}). Reload to see the current values.`,
        );
      }
      const { response, changes, name } = await opts.apply(tx, loaded, current + 1);
      const activityId = await audit.record(tx, {
        action: SECTIONS[section].action,
        user: opts.principal.username,
        accounts: [{ id: loaded.account.id, name: name ?? loaded.account.name, classId: loaded.account.classId }],
        params: { accountId: loaded.account.id, version: current + 1 },
        changes,
      });
      await opts.afterAudit?.(tx, activityId);
      return response;
    });
  }

  return {
    async detail({ principal, accountId }) {
      const loaded = await load(db, principal, accountId, false);
      const { account: a, settings: s } = loaded;
      const addOn = a.classId === CLASS_ADD_ON;
      const [sites, stats, draftId, parent] = await Promise.all([
        addOn ? Promise.resolve([]) : repo.selectSitesOf(db, a.id),
        repo.selectMachineCounts(db, a.id),
        repo.selectDraftIdOf(db, a.id),
        a.parentId ? repo.selectParentCandidate(db, a.parentId, hiddenClassIds(principal)) : Promise.resolve(undefined),
      ]);
      const machineConfig = addOn ? null : machineConfigOf(loaded);
      const license = licenseOf(loaded);
      const first = sites[0];
      const props = propertiesOf(a);
      return {
        ...props,
        id: a.id,
        draftId,
        creator: a.creator,
        creationTime: a.creationTime.toISOString(),
        expirationTime: a.expirationTime?.toISOString() ?? null,
        siteMasterName: first?.name ?? null,
        siteMasterUrlFriendlyName: first?.urlFriendlyName ?? null,
        siteMasterSubdomain: first ? first.domainName.replace(`.${PROVIDER_DOMAIN}`, '') : null,
        siteMasterPort: first?.port ?? null,
        class: { id: a.classId, name: className(a.classId) },
        parent: parent ? { id: parent.id, name: parent.name } : null,
        billingPeriod: props.billing.period,
        licenseConfig: license,
        machineConfig,
        backupConfig: addOn ? null : readBackup(s.backupConfig),
        idleSchedules: addOn ? [] : s.idleSchedules,
        sites,
        bundleVersion: a.bundleVersion,
        instancePolicy: license.instancePolicy,
        vmImageName: a.vmImageName,
        machineStats: stats ?? EMPTY_COUNTS,
        isTemplate: a.isTemplate,
        launcherUrl: machineConfig ? launcherUrl(a.urlFriendlyName, machineConfig.enableSsl) : null,
        versions: { properties: a.propertiesVersion, license: s.licenseVersion, instance: s.instanceVersion, backup: s.backupVersion, idle: s.idleVersion },
      };
    },

    pushProperties: ({ principal, accountId, body }) =>
      push({
        principal,
        accountId,
        section: 'properties',
        version: body.version,
        async apply(tx, { account }, next) {
          const { version: _version, ...sent } = body;
          const props = normaliseProperties(sent);
          const errors: TFieldError[] = [];
          if ((props.classId === CLASS_ADD_ON) !== (account.classId === CLASS_ADD_ON)) {
            errors.push({ propertyName: 'classId', errorMessage: 'An existing account cannot be changed to or from the add-on class', attemptedValue: props.classId });
          } else if (props.classId !== account.classId || props.parentId !== account.parentId) {
            errors.push(...(await checkClassAndParent(tx, { principal, classId: props.classId, parentId: props.parentId, accountId })));
          }
          if (errors.length > 0) throw badRequest(errors);
          if (props.urlFriendlyName !== account.urlFriendlyName && (await repo.selectAccountByUrlName(tx, props.urlFriendlyName, accountId))) {
            throw urlNameTaken(props.urlFriendlyName);
          }
          const before = propertiesOf(account);
          try {
            await repo.updateAccountRow(tx, accountId, {
              ...flatProperties(props),
              propertiesVersion: next,
            });
          } catch (error) {
            if (repo.isUniqueViolation(error)) throw urlNameTaken(props.urlFriendlyName);
            throw error;
          }
          if (props.customer) await catalogue.insertCustomer(tx, props.customer);
          return {
            response: { ...props, version: next },
            changes: diffChanges('Account', flatProperties(before), flatProperties(props)),
            name: props.name,
          };
        },
      }),

    pushLicense: ({ principal, accountId, body }) =>
      push({
        principal,
        accountId,
        section: 'license',
        version: body.version,
        async apply(tx, loaded, next) {
          const { version: _version, ...sent } = body;
          const [first] = await catalogue.selectInstanceTypes(tx, false);
          const license = normaliseLicense(sent, first?.id ?? null);
          const errors = await checkLicense(tx, { license, classId: loaded.account.classId });
          if (errors.length > 0) throw badRequest(errors);
          const before = licenseOf(loaded);
          await repo.updateSettingsRow(tx, accountId, { licenseConfig: license, licenseVersion: next });
          await repo.updateAccountRow(tx, accountId, {
            instancePolicy: license.instancePolicy,
            expirationTime: license.expirationTime ? new Date(license.expirationTime) : null,
          });
          return { response: { ...license, version: next }, changes: diffChanges('LicenseConfig', before, license) };
        },
      }),

    async instanceSettings({ principal, accountId }) {
      const loaded = await load(db, principal, accountId, false);
      if (loaded.account.classId === CLASS_ADD_ON) throw noSection('instance');
      return { ...machineConfigOf(loaded), version: loaded.settings.instanceVersion };
    },

    pushInstance: ({ principal, accountId, body }) =>
      push({
        principal,
        accountId,
        section: 'instance',
        version: body.version,
        async apply(tx, loaded, next) {
          const { version: _version, ...sent } = body;
          const checked = await checkMachineConfig(tx, { config: normaliseMachineConfig(sent), stored: loaded.settings.machineConfig });
          if (checked.errors.length > 0) throw badRequest(checked.errors);
          const config = checked.config;
          const before = machineConfigOf(loaded);
          await repo.updateSettingsRow(tx, accountId, { machineConfig: config, instanceVersion: next });
          await repo.updateAccountRow(tx, accountId, { vmImageName: config.vmImageName, bundleVersion: config.bundleVersion });
          return { response: { ...config, version: next }, changes: diffChanges('MachineConfig', before, config) };
        },
        // The machines' desired versions follow the pushed config in the push's transaction (DESIGN §12).
        afterAudit: (tx, activityId) => applyDesiredState(tx, { accountIds: [accountId], activityId }).then(() => undefined),
      }),

    pushBackup: ({ principal, accountId, body }) =>
      push({
        principal,
        accountId,
        section: 'backup',
        version: body.version,
        async apply(tx, loaded, next) {
          const { version: _version, ...sent } = body;
          const backup = normaliseBackup(sent);
          const before = readBackup(loaded.settings.backupConfig);
          await repo.updateSettingsRow(tx, accountId, { backupConfig: backup, backupVersion: next });
          return { response: { ...backup, version: next }, changes: diffChanges('BackupConfig', before, backup) };
        },
      }),

    pushIdle: ({ principal, accountId, body }) =>
      push({
        principal,
        accountId,
        section: 'idle',
        version: body.version,
        async apply(tx, loaded, next) {
          const idleSchedules = normaliseIdleSchedules(body.idleSchedules);
          await repo.updateSettingsRow(tx, accountId, { idleSchedules, idleVersion: next });
          return {
            response: { idleSchedules, version: next },
            changes: diffChanges('IdleSchedule', { idleSchedules: loaded.settings.idleSchedules }, { idleSchedules }),
          };
        },
      }),
  };
}
