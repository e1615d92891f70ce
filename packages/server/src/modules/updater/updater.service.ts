/**
 * The updater's flag and configuration batches (spec 3 §2.8, §7 Updater and
 * batch; spec 2 §5, §7; DESIGN §5, §15): `PUT /machines/batch`,
 * `PUT /accounts/batch`, `PUT /machines/batch/component-configs` and
 * `/deployer-configs`.
 *
 * Every batch, per the shared rules of `@fleet/contracts` `updater.ts`:
 * - reads all its targets in one statement; an unknown id, or one hidden from
 *   the caller (Customer Production without group CustomerProductionAccess),
 *   answers 404 whose `errors` name each such id (`machineIds[3]`,
 *   `componentConfigs.17`), dry run or not;
 * - computes each target's changes (fields already equal are none) or the rule
 *   that refuses it (`updater.rules.ts`, and `config-rules.ts` of the single
 *   configuration calls);
 * - `dryRun`: answers that, writes nothing (no row, no audit);
 * - otherwise, in one transaction with the targets locked in id order: 422
 *   naming every refused target and its rule, else one statement per kind of
 *   change and one audit activity (its accounts every account touched, its
 *   changes every target's, entity `Machine 17` / `Account 4`). Nothing changed:
 *   no activity (`activityId` null).
 *
 * Moving targets into Customer Production without the group is 403 before any
 * target is read, as the single calls answer.
 */
import {
  CLASS_CUSTOMER_PRODUCTION,
  PERMISSION_ADMIN,
  ZAccountFilter,
  type TSavedSelection,
  type TSaveSelectionRequest,
  type TTargetIdsResponse,
  type TUpdaterAccount,
  type TUpdaterMachine,
  ZBatchAccountsRequest,
  ZBatchMachinesRequest,
  type TBatchResult,
  type TConfigMap,
  type TFieldError,
  type TTargetResult,
} from '@fleet/contracts';
import type { z } from 'zod';
import { readAll, type Db, type DbOrTx } from '../../db/client.js';
import { hasCustomerProductionAccess, hiddenClassIds, type Principal } from '../../auth/principal.js';
import { badRequest, forbidden, HttpProblem, notFound } from '../../lib/problem.js';
import type { AuditService } from '../audit/audit.service.js';
import { checkConfig } from '../machine-configs/config-rules.js';
import { selectComponentDefinitions, selectDeployerDefinitions } from '../machine-configs/machine-configs.repository.js';
import type { AccountFilter } from '../accounts/accounts-filter.repository.js';
import * as repo from './updater.repository.js';
import { accountFlagResult, auditChanges, configChanges, machineFlagResult } from './updater.rules.js';

type MachinesBody = z.output<typeof ZBatchMachinesRequest>;
type AccountsBody = z.output<typeof ZBatchAccountsRequest>;
export type BatchConfigKind = 'component' | 'deployer';

const CONFIG_KINDS = {
  component: { column: 'componentConfig', body: 'componentConfigs', action: 'BatchUpdateComponentConfigs', definitions: selectComponentDefinitions },
  deployer: { column: 'deployerConfig', body: 'deployerConfigs', action: 'BatchUpdateDeployerConfigs', definitions: selectDeployerDefinitions },
} as const;

export interface UpdaterService {
  /** `PUT /machines/batch`: managed, manual maintenance and class of the machines. */
  batchMachines(o: { principal: Principal; body: MachinesBody }): Promise<TBatchResult>;
  /** `PUT /accounts/batch`: managed, class and auto test of the accounts; bumps each changed account's properties version. */
  batchAccounts(o: { principal: Principal; body: AccountsBody }): Promise<TBatchResult>;
  /** `PUT /machines/batch/{kind}-configs`: each machine's whole configuration of the kind, keyed by machine id. */
  batchConfigs(o: { principal: Principal; kind: BatchConfigKind; configs: Record<string, TConfigMap>; dryRun: boolean }): Promise<TBatchResult>;
  /** `GET /updater/machines`: a page of the visible machines matching the filter, by name then id. */
  machines(o: { principal: Principal; query: MachineQuery & Page }): Promise<{ items: TUpdaterMachine[]; totalItems: number }>;
  /** `GET /updater/machines/ids`: the ids of the matches (at most MAX_UPDATE_TARGETS) and their number. */
  machineIds(o: { principal: Principal; query: MachineQuery }): Promise<TTargetIdsResponse>;
  /** `GET /updater/accounts`: a page of the visible accounts matching the accounts list's filter, by name then id. */
  accounts(o: { principal: Principal; query: AccountQuery & Page }): Promise<{ items: TUpdaterAccount[]; totalItems: number }>;
  /** `GET /updater/accounts/ids`: the ids of the matches (at most MAX_UPDATE_TARGETS) and their number. */
  accountIds(o: { principal: Principal; query: AccountQuery }): Promise<TTargetIdsResponse>;
  /** `GET /updater/selections`: every saved selection, newest first. */
  selections(): Promise<TSavedSelection[]>;
  /** `POST /updater/selections`: 400 naming `query` when it is not an accounts list query; 404 naming `ids[i]` unknown or hidden. Audited SaveSelection. */
  saveSelection(o: { principal: Principal; body: SelectionBody }): Promise<TSavedSelection>;
  /** `DELETE /updater/selections/{id}`: its owner or an admin (403 otherwise); 404 unknown. Audited DeleteSelection. */
  deleteSelection(o: { principal: Principal; id: number }): Promise<{ ok: true }>;
}

type Page = { startIndex: number; limit: number };
type MachineQuery = { classIds?: number[]; search?: string; accountIds?: number[] };
type AccountQuery = Omit<AccountFilter, 'hiddenClassIds'>;
type SelectionBody = Required<Pick<TSaveSelectionRequest, 'name' | 'kind'>> & { query: string | null; ids: number[] };

/** The accounts list filter a saved query holds, or the reason it is not one (parsed as `GET /accounts` parses its query). */
function parseAccountQuery(query: string): string | null {
  const params = new URLSearchParams(query);
  const parsed = ZAccountFilter.strict().safeParse(Object.fromEntries(params));
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}

const toSelection = (row: repo.SelectionRow): TSavedSelection => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  query: row.query,
  ids: row.ids,
  owner: row.owner,
  createdAt: row.createdAt.toISOString(),
});

/** 404 naming each id of `ids` (at its position, under `path`) that `found` lacks; nothing when all are found. */
function refuseMissing(ids: number[], found: { id: number }[], label: string, propertyName: (index: number, id: number) => string): void {
  const have = new Set(found.map((f) => f.id));
  const errors: TFieldError[] = ids.flatMap((id, i) =>
    have.has(id) ? [] : [{ propertyName: propertyName(i, id), errorMessage: `${label} ${id} was not found`, attemptedValue: id }],
  );
  if (errors.length > 0) {
    throw new HttpProblem(404, 'Not Found', `${errors.length} ${label.toLowerCase()}(s) were not found`, errors);
  }
}

/** 422 naming each refused target (under `path`) and its rule; nothing when none is refused. */
function refuseByRule(targets: TTargetResult[], ids: number[], label: string, propertyName: (index: number, id: number) => string): void {
  const position = new Map(ids.map((id, i) => [id, i]));
  const errors: TFieldError[] = targets
    .filter((t) => t.refused !== null)
    .map((t) => ({ propertyName: propertyName(position.get(t.id) ?? 0, t.id), errorMessage: `${label} ${t.name}: ${t.refused}`, attemptedValue: t.id }));
  if (errors.length > 0) {
    throw new HttpProblem(422, 'Unprocessable Content', `${errors.length} target(s) refused by a rule; nothing was changed`, errors);
  }
}

const changedOf = (targets: TTargetResult[]) => targets.filter((t) => t.refused === null && t.changes.length > 0);

function result(dryRun: boolean, targets: TTargetResult[], activityId: number | null): TBatchResult {
  return {
    dryRun,
    targets,
    changed: targets.filter((t) => t.changes.length > 0 && t.refused === null).length,
    refused: targets.filter((t) => t.refused !== null).length,
    activityId,
    rolloutId: null,
  };
}

/** The distinct accounts of the targets, for the audit activity. */
function accountsOf(rows: { account: { id: number; name: string; classId: number } }[]) {
  return [...new Map(rows.map((r) => [r.account.id, r.account])).values()];
}

export function createUpdaterService({ db, audit }: { db: Db; audit: AuditService }): UpdaterService {
  /** Runs `work` in a transaction that writes, or on `db` (read only, no locks) for a dry run. */
  const run = <T>(dryRun: boolean, work: (tx: DbOrTx, lock: boolean) => Promise<T>): Promise<T> =>
    dryRun ? work(db, false) : db.transaction((tx) => work(tx, true));

  return {
    async batchMachines({ principal, body }) {
      if (body.classId === CLASS_CUSTOMER_PRODUCTION && !hasCustomerProductionAccess(principal)) {
        throw forbidden('Moving a machine into Customer Production needs group CustomerProductionAccess');
      }
      const ids = body.machineIds;
      const at = (i: number) => `machineIds[${i}]`;
      return run(body.dryRun, async (tx, lock) => {
        const rows = await repo.selectMachineTargets(tx, { ids, hiddenClassIds: hiddenClassIds(principal), lock });
        refuseMissing(ids, rows, 'Machine', at);
        const targets = rows.map((m) => machineFlagResult(m, body));
        if (body.dryRun) return result(true, targets, null);
        refuseByRule(targets, ids, 'Machine', at);
        const changed = changedOf(targets);
        if (changed.length === 0) return result(false, targets, null);
        const changedIds = new Set(changed.map((t) => t.id));
        const values = { managed: body.managed, manualMaintenance: body.manualMaintenance, classId: body.classId };
        await repo.updateMachineFlags(
          tx,
          [...changedIds],
          Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)),
        );
        const activityId = await audit.record(tx, {
          action: 'BatchUpdateMachines',
          user: principal.username,
          accounts: accountsOf(rows.filter((r) => changedIds.has(r.id))),
          params: { machineIds: [...changedIds], ...values },
          changes: auditChanges('Machine', changed),
        });
        return result(false, targets, activityId);
      });
    },

    async batchAccounts({ principal, body }) {
      if (body.classId === CLASS_CUSTOMER_PRODUCTION && !hasCustomerProductionAccess(principal)) {
        throw forbidden('Only members of group CustomerProductionAccess may choose the class Customer Production');
      }
      const ids = body.accountIds;
      const at = (i: number) => `accountIds[${i}]`;
      return run(body.dryRun, async (tx, lock) => {
        const rows = await repo.selectAccountTargets(tx, { ids, hiddenClassIds: hiddenClassIds(principal), lock });
        refuseMissing(ids, rows, 'Account', at);
        const targets = rows.map((a) => accountFlagResult(a, body));
        if (body.dryRun) return result(true, targets, null);
        refuseByRule(targets, ids, 'Account', at);
        const changed = changedOf(targets);
        if (changed.length === 0) return result(false, targets, null);
        const changedIds = new Set(changed.map((t) => t.id));
        const values = {
          managed: body.managed,
          classId: body.classId,
          autoTest: body.autoTest,
          // Auto test off drops its branch, as a properties push normalises it (spec 1 §4).
          autoTestBranch: body.autoTest === false ? null : undefined,
        };
        await repo.updateAccountFlags(tx, [...changedIds], Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)));
        // Each account's class after the batch: an activity about an account now in a hidden class is hidden with it.
        const activityId = await audit.record(tx, {
          action: 'BatchUpdateAccounts',
          user: principal.username,
          accounts: rows.filter((r) => changedIds.has(r.id)).map((r) => ({ id: r.id, name: r.name, classId: body.classId ?? r.classId })),
          params: { accountIds: [...changedIds], managed: body.managed, classId: body.classId, autoTest: body.autoTest },
          changes: auditChanges('Account', changed),
        });
        return result(false, targets, activityId);
      });
    },

    async batchConfigs({ principal, kind, configs, dryRun }) {
      const { column, body, action, definitions } = CONFIG_KINDS[kind];
      const keys = Object.keys(configs);
      const ids = keys.map(Number);
      const at = (_i: number, id: number) => `${body}.${id}`;
      return run(dryRun, async (tx, lock) => {
        const [rows, defs] = await readAll(tx, [
          () => repo.selectMachineConfigTargets(tx, { ids, hiddenClassIds: hiddenClassIds(principal), column, lock }),
          () => definitions(tx),
        ]);
        refuseMissing(ids, rows, 'Machine', at);
        // The rules of the single call (PUT /machines/{id}/component-config): bad keys and types are 400, protected keys refuse the machine.
        const errors: TFieldError[] = [];
        const targets = rows.map((m): TTargetResult => {
          const next = configs[String(m.id)]!;
          const checked = checkConfig(`${body}.${m.id}`, next, m.config, defs);
          errors.push(...checked.errors);
          const refused = checked.protectedChanged.length > 0 ? `Protected configs are read-only: ${checked.protectedChanged.join(', ')}` : null;
          return { id: m.id, name: m.name, changes: configChanges(m.config, next), refused };
        });
        if (errors.length > 0) throw badRequest(errors);
        if (dryRun) return result(true, targets, null);
        refuseByRule(targets, ids, 'Machine', at);
        const changed = changedOf(targets);
        if (changed.length === 0) return result(false, targets, null);
        const changedIds = new Set(changed.map((t) => t.id));
        await repo.updateMachineConfigs(tx, column, new Map(changed.map((t) => [t.id, configs[String(t.id)]!])));
        const activityId = await audit.record(tx, {
          action,
          user: principal.username,
          accounts: accountsOf(rows.filter((r) => changedIds.has(r.id))),
          params: { machineIds: [...changedIds] },
          changes: auditChanges('Machine', changed),
        });
        return result(false, targets, activityId);
      });
    },

    machines: ({ principal, query }) => repo.selectUpdaterMachinePage(db, { ...query, hiddenClassIds: hiddenClassIds(principal) }),
    machineIds: ({ principal, query }) => repo.selectUpdaterMachineIds(db, { ...query, hiddenClassIds: hiddenClassIds(principal) }),
    accounts: ({ principal, query }) => repo.selectUpdaterAccountPage(db, { ...query, hiddenClassIds: hiddenClassIds(principal) }),
    accountIds: ({ principal, query }) => repo.selectUpdaterAccountIds(db, { ...query, hiddenClassIds: hiddenClassIds(principal) }),

    async selections() {
      return (await repo.selectSelections(db)).map(toSelection);
    },

    async saveSelection({ principal, body }) {
      const invalid = body.query === null ? null : parseAccountQuery(body.query);
      if (invalid) throw badRequest([{ propertyName: 'query', errorMessage: `Not an accounts list query (${invalid})`, attemptedValue: body.query }]);
      if (body.ids.length > 0) {
        const visible = await repo.selectVisibleIds(db, { kind: body.kind, ids: body.ids, hiddenClassIds: hiddenClassIds(principal) });
        refuseMissing(body.ids, [...visible].map((id) => ({ id })), body.kind === 'machines' ? 'Machine' : 'Account', (i) => `ids[${i}]`);
      }
      return db.transaction(async (tx) => {
        const row = await repo.insertSelection(tx, { ...body, ownerId: principal.userId });
        await audit.record(tx, {
          action: 'SaveSelection',
          user: principal.username,
          params: { selectionId: row.id, name: body.name, kind: body.kind, query: body.query, ids: body.ids },
        });
        return toSelection({ ...body, id: row.id, ownerId: principal.userId, owner: principal.username, createdAt: row.createdAt });
      });
    },

    async deleteSelection({ principal, id }) {
      return db.transaction(async (tx) => {
        const row = await repo.selectSelection(tx, id, true);
        if (!row) throw notFound(`Selection ${id}`);
        if (row.ownerId !== principal.userId && !principal.permissions.includes(PERMISSION_ADMIN)) {
          throw forbidden(`Only the owner of selection ${row.name} (${row.owner}) or an admin may delete it`);
        }
        await repo.deleteSelection(tx, id);
        await audit.record(tx, {
          action: 'DeleteSelection',
          user: principal.username,
          params: { selectionId: id, name: row.name, kind: row.kind, owner: row.owner },
        });
        return { ok: true as const };
      });
    },
  };
}
