/**
 * Component and deployer configurations of machines (spec 2 §2.3 Component
 * Configs and Deployer Config, §5, §7; DESIGN §6): saving a machine's whole
 * configuration under the rules of `config-rules.ts`, its defaults from the
 * catalogues, for one machine or a batch, and the current configurations of a
 * batch (spec 3 §2.8, §7 Updater and batch).
 *
 * Errors: 404 for a machine the user may not see; 400 naming
 * `componentConfig.<key>` (or `deployerConfig.<key>`) for an unknown key or a
 * value of the wrong type; 422 when a protected key would change; 400 naming
 * `ids` for batch defaults of machines the user may not see; 404 naming each
 * `ids[i]` for batch current configurations of machines the user may not see
 * (unknown and hidden alike, like the updater's batch calls). Each save is audited
 * (UpdateComponentConfig, UpdateDeployerConfig) with one change per key.
 *
 * The catalogues of definitions themselves are the `config-catalogues` module's;
 * defaults read them on every call, so a catalogue change is used at once.
 */
import type { TConfigMap, TFieldError, TMachine } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { badRequest, HttpProblem, notFound, unprocessable } from '../../lib/problem.js';
import { diffChanges, type AuditService } from '../audit/audit.service.js';
import { findVisibleMachine, selectVisibleTargets } from '../machines/machines.repository.js';
import { selectMachine } from '../machines/machines-page.repository.js';
import { checkConfig, defaultsFor } from './config-rules.js';
import * as repo from './machine-configs.repository.js';

export type ConfigKind = 'component' | 'deployer';

const KINDS = {
  component: {
    field: 'componentConfig',
    action: 'UpdateComponentConfig',
    entity: 'ComponentConfig',
    definitions: repo.selectComponentDefinitions,
  },
  deployer: {
    field: 'deployerConfig',
    action: 'UpdateDeployerConfig',
    entity: 'DeployerConfig',
    definitions: repo.selectDeployerDefinitions,
  },
} as const;

export interface MachineConfigService {
  /** Replaces the machine's configuration of the kind; answers the machine. */
  save(o: { principal: Principal; machineId: number; kind: ConfigKind; config: TConfigMap }): Promise<TMachine>;
  /** Default configuration of the kind for one machine (404 when the user may not see it). */
  defaultsOf(o: { principal: Principal; machineId: number; kind: ConfigKind }): Promise<TConfigMap>;
  /** Default configuration of the kind for each machine, in the order asked (400 naming `ids` for any the user may not see). */
  defaults(o: { principal: Principal; machineIds: number[]; kind: ConfigKind }): Promise<{ machineId: number; config: TConfigMap }[]>;
  /**
   * Current configuration of the kind for each machine, in the order asked, as
   * the single machine's read shows it (`GET /machines/{id}` `config`); one SQL
   * statement. 404 whose `errors` name each `ids[i]` unknown or hidden.
   */
  current(o: { principal: Principal; machineIds: number[]; kind: ConfigKind }): Promise<{ machineId: number; config: TConfigMap }[]>;
}

export function createMachineConfigService({ db, audit }: { db: Db; audit: AuditService }): MachineConfigService {
  async function defaultsFrom(machineIds: number[], kind: ConfigKind) {
    const [defs, facts] = await Promise.all([KINDS[kind].definitions(db), repo.selectSubstitutionFacts(db, machineIds)]);
    const byId = new Map(facts.map((f) => [f.machineId, f]));
    return machineIds.flatMap((id) => {
      const f = byId.get(id);
      return f ? [{ machineId: id, config: defaultsFor(defs, f) }] : [];
    });
  }

  return {
    async save({ principal, machineId, kind, config }) {
      const { field, action, entity, definitions } = KINDS[kind];
      await db.transaction(async (tx) => {
        const found = await findVisibleMachine(tx, { id: machineId, hiddenClassIds: hiddenClassIds(principal), forUpdate: true });
        if (!found) throw notFound(`Machine ${machineId}`);
        const current = found.machine[field];
        const { errors, protectedChanged } = checkConfig(field, config, current, await definitions(tx));
        if (errors.length > 0) throw badRequest(errors);
        if (protectedChanged.length > 0) {
          throw unprocessable(`Protected configs are read-only: ${protectedChanged.join(', ')}`);
        }
        const removed = Object.fromEntries(Object.keys(current).filter((k) => !(k in config)).map((k) => [k, null]));
        const changes = diffChanges(entity, current, { ...config, ...removed });
        if (changes.length === 0) return;
        await repo.updateMachineConfig(tx, machineId, kind === 'component' ? { componentConfig: config } : { deployerConfig: config });
        await audit.record(tx, {
          action,
          user: principal.username,
          accounts: [found.account],
          params: { machineId, machineName: found.machine.name, keys: changes.map((c) => c.propertyName) },
          changes,
        });
      });
      const machine = await selectMachine(db, machineId, hiddenClassIds(principal));
      if (!machine) throw notFound(`Machine ${machineId}`);
      return machine;
    },

    async defaults({ principal, machineIds, kind }) {
      const targets = await selectVisibleTargets(db, { machineIds, accountIds: [], hiddenClassIds: hiddenClassIds(principal) });
      const visible = new Set(targets.map((m) => m.id));
      const unknown = machineIds.filter((id) => !visible.has(id));
      if (unknown.length > 0) throw badRequest([{ propertyName: 'ids', errorMessage: 'Unknown machines', attemptedValue: unknown }]);
      return defaultsFrom(machineIds, kind);
    },

    async current({ principal, machineIds, kind }) {
      const rows = await repo.selectMachineConfigs(db, { machineIds, hiddenClassIds: hiddenClassIds(principal), kind });
      const byId = new Map(rows.map((r) => [r.machineId, r.config]));
      const errors: TFieldError[] = machineIds.flatMap((id, i) =>
        byId.has(id) ? [] : [{ propertyName: `ids[${i}]`, errorMessage: `Machine ${id} was not found`, attemptedValue: id }],
      );
      if (errors.length > 0) throw new HttpProblem(404, 'Not Found', `${errors.length} machine(s) were not found`, errors);
      return machineIds.map((id) => ({ machineId: id, config: byId.get(id)! }));
    },

    async defaultsOf({ principal, machineId, kind }) {
      const found = await findVisibleMachine(db, { id: machineId, hiddenClassIds: hiddenClassIds(principal) });
      const [item] = found ? await defaultsFrom([machineId], kind) : [];
      if (!item) throw notFound(`Machine ${machineId}`);
      return item.config;
    },
  };
}
