/**
 * Creating an account through a draft (spec 1 §2 Create account, §3 Creation
 * payload, §4; DESIGN §6): `POST /accounts` validates the payload (properties,
 * instance settings, license, backup, idle) and saves a draft, `GET
 * /draft-accounts/{id}` shows it with its planned sites and machines,
 * `POST /draft-accounts` updates it, `POST /accounts/create-from-draft` creates
 * the account.
 *
 * Rules: those of the request schema (every body-only error in one 400), then the
 * server's (class Customer Production needs the group: 403; a valid add-on parent;
 * known instance types, features, categories, region, active image in the
 * region, library files and versions; site names and domains), then 409 when the
 * URL name or a site domain is taken by a live account. Drafts belong to their
 * author (404 to others) and are audited SaveDraftAccount; creation is audited
 * CreateAccount.
 *
 * create-from-draft re-checks the draft (the catalogues and URL names may have
 * changed), applies the adjusted component configs, and in one transaction inserts
 * the account, its settings, sites (domain `{site}-{account}.{provider domain}`),
 * machines (component and deployer config defaults by the rules of
 * `machine-configs/config-rules.ts`, as their `GET default-*-config` answers
 * them once they exist; component configs as adjusted) and queues one New
 * CreateMachine task per machine through the task queue (the engine runs them;
 * TaskQueued events are announced after the commit).
 */
import {
  CLASS_ADD_ON,
  ZCreateAccountFields,
  toUrlFriendlyName,
  type TComponentConfigKey,
  type TCreateAccountPayload,
  type TDraftAccount,
  type TFieldError,
  type TPlannedMachine,
  type TPlannedSite,
} from '@fleet/contracts';
import { readAll, type Db, type DbOrTx } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import type { QueuedTask, TaskQueue } from '../../engine/tasks/queue.js';
import { linkTasksToActivity } from '../../engine/tasks/tasks.repository.js';
import { badRequest, conflict, notFound, unprocessable } from '../../lib/problem.js';
import { diffChanges, type AuditService } from '../audit/audit.service.js';
import * as catalogue from '../catalogues/catalogues.repository.js';
import { selectAccountByUrlName, isUniqueViolation } from '../account-settings/account-settings.repository.js';
import {
  checkClassAndParent,
  checkLicense,
  checkMachineConfig,
  normaliseBackup,
  normaliseIdleSchedules,
  normaliseLicense,
  normaliseMachineConfig,
  normaliseProperties,
} from '../account-settings/account-rules.js';
import { resolveSiteNames } from '../sites/sites.service.js';
import { selectSiteByDomain } from '../sites/sites.repository.js';
import * as repo from './drafts.repository.js';
import { defaultsFor } from '../machine-configs/config-rules.js';
import { selectComponentDefinitions, selectDeployerDefinitions } from '../machine-configs/machine-configs.repository.js';
import { checkAdjustedConfigs, configKeys, planMachines, plannedFacts, type PlanInput } from './drafts.planner.js';
import { applyDesiredState } from '../../engine/desired-state/desired-state.js';

interface Prepared {
  payload: TCreateAccountPayload;
  sites: TPlannedSite[];
  machines: TPlannedMachine[];
  keys: TComponentConfigKey[];
  /** What the plan was made from (null for add-on accounts, which plan no machines). */
  plan: PlanInput | null;
}

export interface DraftService {
  create(opts: { principal: Principal; body: TCreateAccountPayload }): Promise<{ draftAccountId: number }>;
  get(opts: { principal: Principal; id: number }): Promise<TDraftAccount>;
  update(opts: { principal: Principal; id: number; body: TCreateAccountPayload }): Promise<{ draftAccountId: number }>;
  createFromDraft(opts: {
    principal: Principal;
    draftAccountId: number;
    machineComponentConfigs: Record<string, Record<string, unknown>>;
  }): Promise<{ accountId: number }>;
}

/** The payload with defaults derived, normalised as it will be stored (spec 1 §4, §5). */
function normalisePayload(body: TCreateAccountPayload, firstInstanceTypeId: number | null): TCreateAccountPayload {
  const p = normaliseProperties({ ...body, urlFriendlyName: body.urlFriendlyName || toUrlFriendlyName(body.name) });
  const machine = { ...p.machineConfig };
  if (p.mainLibraryFiles !== undefined) {
    machine.mainLibraryFiles = p.mainLibraryFiles;
    if (p.mainLibraryFiles.length > 0 && machine.mainLibraryMode === 'None') machine.mainLibraryMode = 'Select';
  }
  if (p.accountLibraryFile !== undefined) {
    machine.accountLibraryFiles = p.accountLibraryFile === null ? [] : [p.accountLibraryFile];
    if (p.accountLibraryFile !== null && machine.accountLibraryMode === 'None') machine.accountLibraryMode = 'Select';
  }
  const machineConfig = normaliseMachineConfig(machine);
  return {
    ...p,
    mainLibraryFiles: machineConfig.mainLibraryFiles,
    accountLibraryFile: machineConfig.accountLibraryFile,
    licenseConfig: normaliseLicense(p.licenseConfig, firstInstanceTypeId),
    machineConfig,
    backupConfig: normaliseBackup(p.backupConfig),
    idleSchedules: normaliseIdleSchedules(p.idleSchedules),
  };
}

/** The sites a payload plans, with their field errors named as the payload names them. */
function payloadSites(p: TCreateAccountPayload): { sites: TPlannedSite[]; errors: TFieldError[] } {
  if (p.classId === CLASS_ADD_ON) return { sites: [], errors: [] };
  const fromSiteMaster = p.sites.length === 0;
  const sources = fromSiteMaster
    ? [{ name: p.siteMasterName, urlFriendlyName: p.siteMasterUrlFriendlyName, domainName: p.siteMasterDomainName, port: p.siteMasterPort }]
    : p.sites;
  const rename: Record<string, string> = { siteMasterurlFriendlyName: 'siteMasterUrlFriendlyName', siteMasterdomainName: 'siteMasterDomainName' };
  const errors: TFieldError[] = [];
  const sites = sources.slice(0, p.licenseConfig.instancePolicy === 'AllInOne' ? 1 : undefined).map((s, i) => {
    const names = resolveSiteNames(s, p.urlFriendlyName, fromSiteMaster ? 'siteMaster' : `sites.${i}.`);
    errors.push(...names.errors.map((e) => ({ ...e, propertyName: rename[e.propertyName] ?? e.propertyName })));
    return { name: s.name, urlFriendlyName: names.urlFriendlyName, domainName: names.domainName, port: s.port };
  });
  sites.forEach((s, i) => {
    if (sites.findIndex((o) => o.domainName === s.domainName) < i) {
      errors.push({ propertyName: fromSiteMaster ? 'siteMasterDomainName' : `sites.${i}.domainName`, errorMessage: 'Domain name must be unique within the account', attemptedValue: s.domainName });
    }
  });
  return { sites, errors };
}

export function createDraftService({ db, audit, tasks }: { db: Db; audit: AuditService; tasks: TaskQueue }): DraftService {
  /** Validates and plans a payload (see the module docstring); throws 400, 403 or 409. */
  async function prepare(tx: DbOrTx, principal: Principal, body: TCreateAccountPayload): Promise<Prepared> {
    const [firstType] = await catalogue.selectInstanceTypes(tx, false);
    let payload = normalisePayload(body, firstType?.id ?? null);
    const addOn = payload.classId === CLASS_ADD_ON;
    const siteCheck = payloadSites(payload);
    const errors = [
      ...(await checkClassAndParent(tx, { principal, classId: payload.classId, parentId: payload.parentId })),
      ...(await checkLicense(tx, { license: payload.licenseConfig, classId: payload.classId, prefix: 'licenseConfig.' })),
      ...siteCheck.errors,
    ];
    if (!addOn) {
      const checked = await checkMachineConfig(tx, { config: payload.machineConfig, prefix: 'machineConfig.' });
      errors.push(...checked.errors);
      payload = { ...payload, machineConfig: checked.config };
    }
    if (errors.length > 0) throw badRequest(errors);
    if (await selectAccountByUrlName(tx, payload.urlFriendlyName)) {
      throw conflict(`Account URL name '${payload.urlFriendlyName}' is already used by another account`);
    }
    for (const site of siteCheck.sites) {
      if (await selectSiteByDomain(tx, site.domainName)) throw conflict(`Domain name '${site.domainName}' is already used by another site`);
    }
    if (addOn) return { payload, sites: [], machines: [], keys: [], plan: null };
    const [image, configs] = await readAll(tx, [() => catalogue.selectImage(tx, payload.machineConfig.vmImageName), () => selectComponentDefinitions(tx)]);
    const plan: PlanInput = {
      classId: payload.classId,
      accountName: payload.name,
      accountUrlFriendlyName: payload.urlFriendlyName,
      instancePolicy: payload.licenseConfig.instancePolicy,
      enableSsl: payload.machineConfig.enableSsl,
      instanceTypeId: payload.licenseConfig.cloudInstanceType,
      osType: image?.osType ?? null,
      irmnVersion: image?.irmnVersion ?? null,
      sites: siteCheck.sites,
      configs,
    };
    return { payload, sites: siteCheck.sites, machines: planMachines(plan), keys: configKeys(configs, plan.irmnVersion), plan };
  }

  const recordDraft = (tx: DbOrTx, principal: Principal, draftAccountId: number, payload: TCreateAccountPayload) =>
    audit.record(tx, {
      action: 'SaveDraftAccount',
      user: principal.username,
      params: { draftAccountId, name: payload.name, urlFriendlyName: payload.urlFriendlyName, classId: payload.classId },
    });

  const planned = (p: Prepared) => ({ sites: p.sites, machines: p.machines, componentConfigKeys: p.keys });

  return {
    async create({ principal, body }) {
      return db.transaction(async (tx) => {
        const prepared = await prepare(tx, principal, body);
        const id = await repo.insertDraft(tx, { payload: prepared.payload, planned: planned(prepared), createdBy: principal.userId });
        await recordDraft(tx, principal, id, prepared.payload);
        return { draftAccountId: id };
      });
    },

    async get({ principal, id }) {
      const draft = await repo.selectDraft(db, id, principal.userId);
      if (!draft) throw notFound(`Draft account ${id}`);
      const plan = draft.planned as { sites?: TPlannedSite[]; machines?: TPlannedMachine[]; componentConfigKeys?: TComponentConfigKey[] };
      return {
        id: draft.id,
        createdAt: draft.createdAt.toISOString(),
        accountId: draft.accountId,
        payload: ZCreateAccountFields.parse(draft.payload),
        sites: plan.sites ?? [],
        machines: plan.machines ?? [],
        componentConfigKeys: plan.componentConfigKeys ?? [],
      };
    },

    async update({ principal, id, body }) {
      return db.transaction(async (tx) => {
        const draft = await repo.selectDraft(tx, id, principal.userId, true);
        if (!draft) throw notFound(`Draft account ${id}`);
        if (draft.accountId) throw conflict(`Draft account ${id} was already turned into account ${draft.accountId}`);
        const prepared = await prepare(tx, principal, body);
        await repo.updateDraft(tx, id, { payload: prepared.payload, planned: planned(prepared) });
        await recordDraft(tx, principal, id, prepared.payload);
        return { draftAccountId: id };
      });
    },

    async createFromDraft({ principal, draftAccountId, machineComponentConfigs }) {
      const { accountId, queued } = await db.transaction(async (tx) => {
        const draft = await repo.selectDraft(tx, draftAccountId, principal.userId, true);
        if (!draft) throw notFound(`Draft account ${draftAccountId}`);
        if (draft.accountId) throw conflict(`Draft account ${draftAccountId} was already turned into account ${draft.accountId}`);
        const stored = ZCreateAccountFields.safeParse(draft.payload);
        if (!stored.success) throw unprocessable(`Draft account ${draftAccountId} no longer holds a valid payload; save it again`);
        const prepared = await prepare(tx, principal, stored.data);
        const errors = checkAdjustedConfigs(machineComponentConfigs, prepared.machines, prepared.keys);
        if (errors.length > 0) throw badRequest(errors);
        const machines = prepared.machines.map((m) => ({ ...m, componentConfig: machineComponentConfigs[m.name] ?? m.componentConfig }));
        const p = prepared.payload;
        const addOn = p.classId === CLASS_ADD_ON;
        const deployerDefinitions = prepared.plan ? await selectDeployerDefinitions(tx) : [];
        /** A planned machine's deployer config defaults, by the rules of its component configs. */
        const deployerConfigOf = (m: TPlannedMachine) =>
          prepared.plan
            ? defaultsFor(
                deployerDefinitions,
                plannedFacts(prepared.plan, { ...m, site: prepared.sites.find((s) => s.urlFriendlyName === m.siteUrlFriendlyName) ?? null }),
              )
            : {};
        const account = {
          name: p.name,
          urlFriendlyName: p.urlFriendlyName,
          description: p.description,
          customer: p.customer,
          creator: principal.name,
          expirationTime: p.licenseConfig.expirationTime ? new Date(p.licenseConfig.expirationTime) : null,
          classId: p.classId,
          parentId: p.parentId,
          managed: p.managed,
          autoTest: p.autoTest,
          autoTestBranch: p.autoTestBranch,
          whiteGlove: p.whiteGlove,
          maintainer: p.maintainer,
          contactName: p.contactName,
          contactEmail: p.contactEmail,
          contactPhone1: p.contactPhone1,
          contactPhone2: p.contactPhone2,
          billingPeriod: p.billingPeriod,
          billingAmount: p.billingAmount,
          instancePolicy: p.licenseConfig.instancePolicy,
          bundleVersion: addOn ? null : p.machineConfig.bundleVersion,
          vmImageName: addOn ? null : p.machineConfig.vmImageName,
        };
        let created: Awaited<ReturnType<typeof repo.insertAccountGraph>>;
        try {
          created = await repo.insertAccountGraph(tx, {
            account,
            settings: {
              licenseConfig: p.licenseConfig,
              machineConfig: addOn ? {} : p.machineConfig,
              backupConfig: addOn ? {} : p.backupConfig,
              idleSchedules: addOn ? [] : p.idleSchedules,
            },
            sites: prepared.sites,
            machines: machines.map((m) => ({
              name: m.name,
              siteUrlFriendlyName: m.siteUrlFriendlyName,
              classId: p.classId,
              isLauncher: m.isLauncher,
              isSiteMaster: m.isSiteMaster,
              managed: p.managed,
              runSmokeTest: p.machineConfig.runSmokeTest,
              instanceTypeId: m.instanceTypeId,
              bundleVersion: p.machineConfig.bundleVersion,
              sampleData: m.isSiteMaster && p.machineConfig.includeSampleData ? (p.machineConfig.sampleDataFile ? 'Select' : 'Default') : 'None',
              sampleDataFile: m.isSiteMaster ? p.machineConfig.sampleDataFile : null,
              componentConfig: m.componentConfig,
              deployerConfig: deployerConfigOf(m),
            })),
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict(`Account URL name '${p.urlFriendlyName}' is already used by another account`);
          throw error;
        }
        const queued: QueuedTask[] = await tasks.enqueue(
          tx,
          created.machines.map((m) => ({
            machine: { id: m.id, name: m.name, accountId: created.accountId, classId: p.classId, accountClassId: p.classId },
            type: 'CreateMachine' as const,
          })),
        );
        await repo.updateDraft(tx, draftAccountId, { accountId: created.accountId, planned: { ...planned(prepared), machines } });
        if (p.customer) await catalogue.insertCustomer(tx, p.customer);
        const { licenseConfig: _l, machineConfig: _m, backupConfig: _b, idleSchedules: _i, sites: _s, ...properties } = p;
        const activityId = await audit.record(tx, {
          action: 'CreateAccount',
          user: principal.username,
          accounts: [{ id: created.accountId, name: p.name, classId: p.classId }],
          params: {
            accountId: created.accountId,
            draftAccountId,
            sites: prepared.sites.length,
            machineIds: created.machines.map((m) => m.id),
            taskIds: queued.map((q) => q.task.id),
          },
          changes: diffChanges('Account', {}, properties),
        });
        await linkTasksToActivity(tx, queued.map((q) => q.task.id), activityId);
        // The new machines' desired versions are the account's machineConfig resolved
        // (DESIGN §12), from the start: the deploy controller installs them once the
        // instances run, caused by this activity.
        await applyDesiredState(tx, { accountIds: [created.accountId], activityId });
        return { accountId: created.accountId, queued };
      });
      tasks.announce(queued);
      return { accountId };
    },
  };
}

