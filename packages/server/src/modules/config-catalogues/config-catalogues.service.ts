/**
 * The config catalogues (spec 3 §2.5, §3, §4 "Config dialogs", §5, §7 Component
 * configs and Deployer configs; spec 2 §3 config definitions): the definitions
 * of component and deployer config keys that machines' configurations and
 * defaults are checked against and made from.
 *
 * - A page of a catalogue sorted by `rootKey.subKey` (`search`: a substring of
 *   it, any case); one definition by id, or a deployer definition by key.
 * - Create: rootKey, subKey, dataType and optionally the edit fields; 409 when the
 *   key exists. Omitted: not protected, not site specific, no defaults, every version.
 * - Update: only protected, siteSpecific, the defaults, versionId and
 *   deprecatedAtVersionId (the contract refuses the key and data type, 400).
 * - Rules of both: each default text must be of the data type
 *   (`configDefaultTextError`, 400 naming the field); versions must exist (400
 *   naming the field); a deprecation version must come after the version (400
 *   naming deprecatedAtVersionId).
 * - Delete: 409 naming the machines whose configuration still holds the key
 *   (removing the definition would make their configuration unsavable); hidden
 *   Customer Production machines are counted, never named.
 * - Every change is audited in its transaction with field-level changes:
 *   CreateComponentConfig / CreateDeployerConfig, Update…Definition, Delete…Definition.
 *
 * Machine defaults read the catalogue on every call (`machine-configs`,
 * `drafts`): a change is used at once, nothing is cached.
 *
 * Errors: 404 for an unknown id or key; 400, 409 as above.
 *
 * Known limitations: the in-use check of a delete and a machine configuration
 * saved at the same moment are not serialised (the machine writers do not lock
 * the definitions they check against), so a save that read the catalogue just
 * before the delete committed can keep the deleted key. Updates do not rewrite
 * the values machines already hold; a new default reaches a machine through its
 * defaults (`GET /machines/{id}/default-*-config`, new machines).
 */
import {
  configDefaultTextError,
  type TComponentConfigDefinition,
  type TCreateComponentConfigRequest,
  type TCreateDeployerConfigRequest,
  type TDeployerConfigDefinition,
  type TFieldError,
  type TListComponentConfigDefinitionsResponse,
  type TListDeployerConfigDefinitionsResponse,
  type TUpdateComponentConfigRequest,
  type TUpdateDeployerConfigRequest,
} from '@fleet/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { badRequest, conflict, notFound } from '../../lib/problem.js';
import { diffChanges, type AuditService } from '../audit/audit.service.js';
import { compareVersions } from '../machine-configs/config-rules.js';
import * as repo from './config-catalogues.repository.js';

export type { ConfigKind } from './config-catalogues.repository.js';
type ConfigKind = repo.ConfigKind;

const KINDS = {
  component: {
    entity: 'ComponentConfig',
    label: 'Component config',
    createAction: 'CreateComponentConfig',
    updateAction: 'UpdateComponentConfigDefinition',
    deleteAction: 'DeleteComponentConfigDefinition',
    valueFields: ['saasDefaultValue', 'onPremDefaultValue', 'linuxSpecificValue'],
  },
  deployer: {
    entity: 'DeployerConfig',
    label: 'Deployer config',
    createAction: 'CreateDeployerConfig',
    updateAction: 'UpdateDeployerConfigDefinition',
    deleteAction: 'DeleteDeployerConfigDefinition',
    valueFields: ['defaultValue'],
  },
} as const;

/** A page of a catalogue of definitions. */
export type DefinitionPage<K extends ConfigKind> = K extends 'component' ? TListComponentConfigDefinitionsResponse : TListDeployerConfigDefinitionsResponse;
export type Definition<K extends ConfigKind> = K extends 'component' ? TComponentConfigDefinition : TDeployerConfigDefinition;
type UpdateBody<K extends ConfigKind> = K extends 'component' ? TUpdateComponentConfigRequest : TUpdateDeployerConfigRequest;
type CreateBody<K extends ConfigKind> = K extends 'component' ? TCreateComponentConfigRequest : TCreateDeployerConfigRequest;

export interface ConfigCatalogueService {
  /** A page of the kind's catalogue, sorted by `rootKey.subKey`. */
  list<K extends ConfigKind>(o: { kind: K; filter: repo.DefinitionFilter }): Promise<DefinitionPage<K>>;
  /** One definition by id, or (deployer configs) by key `rootKey.subKey`; 404 when unknown. */
  get<K extends ConfigKind>(o: { kind: K; id?: number; key?: string }): Promise<Definition<K>>;
  /** Creates a definition (409 when its key exists); answers it. */
  create<K extends ConfigKind>(o: { principal: Principal; kind: K; body: CreateBody<K> }): Promise<Definition<K>>;
  /** Updates the editable fields of definition `id`; answers it. */
  update<K extends ConfigKind>(o: { principal: Principal; kind: K; id: number; body: UpdateBody<K> }): Promise<Definition<K>>;
  /** Deletes definition `id` unless a machine's configuration holds its key (409). */
  remove(o: { principal: Principal; kind: ConfigKind; id: number }): Promise<{ ok: true }>;
}

/** The field errors of an edit: defaults of the wrong type, unknown versions, a deprecation not after the version. */
async function editErrors(db: DbOrTx, kind: ConfigKind, dataType: string | null, values: repo.DefinitionValues): Promise<TFieldError[]> {
  const errors: TFieldError[] = [];
  for (const field of KINDS[kind].valueFields) {
    const text = values[field] ?? null;
    const message = configDefaultTextError(text, dataType);
    if (message) errors.push({ propertyName: field, errorMessage: message, attemptedValue: text });
  }
  const { versionId, deprecatedAtVersionId } = values;
  const names = await repo.selectVersionNames(db, [versionId, deprecatedAtVersionId].filter((v): v is number => typeof v === 'number'));
  for (const [field, id] of [['versionId', versionId], ['deprecatedAtVersionId', deprecatedAtVersionId]] as const) {
    if (typeof id === 'number' && !names.has(id)) errors.push({ propertyName: field, errorMessage: 'Unknown IRMN version', attemptedValue: id });
  }
  const since = versionId ? names.get(versionId) : undefined;
  const until = deprecatedAtVersionId ? names.get(deprecatedAtVersionId) : undefined;
  if (since && until && compareVersions(until, since) <= 0) {
    errors.push({ propertyName: 'deprecatedAtVersionId', errorMessage: `Must be a version after ${since}`, attemptedValue: deprecatedAtVersionId });
  }
  return errors;
}

/** The audited fields of a stored row of the kind (the editable ones). */
function auditedFields(kind: ConfigKind, row: repo.DefinitionValues): Record<string, unknown> {
  const shared = { protected: row.protected, versionId: row.versionId, deprecatedAtVersionId: row.deprecatedAtVersionId };
  return kind === 'component'
    ? { ...shared, siteSpecific: row.siteSpecific, saasDefaultValue: row.saasDefaultValue, onPremDefaultValue: row.onPremDefaultValue, linuxSpecificValue: row.linuxSpecificValue }
    : { ...shared, defaultValue: row.defaultValue };
}

export function createConfigCatalogueService({ db, audit }: { db: Db; audit: AuditService }): ConfigCatalogueService {
  async function page<K extends ConfigKind>(kind: K, filter: repo.DefinitionFilter, on: DbOrTx = db): Promise<DefinitionPage<K>> {
    const found = kind === 'component' ? await repo.selectComponentDefinitionPage(on, filter) : await repo.selectDeployerDefinitionPage(on, filter);
    return found as DefinitionPage<K>;
  }

  async function one<K extends ConfigKind>(kind: K, by: { id?: number; key?: string }, on: DbOrTx = db): Promise<Definition<K>> {
    const [item] = (await page(kind, { ...by, startIndex: 0, limit: 1 }, on)).items;
    if (!item) throw notFound(`${KINDS[kind].label} ${by.id ?? by.key}`);
    return item as Definition<K>;
  }

  return {
    list: ({ kind, filter }) => page(kind, filter),

    get: ({ kind, id, key }) => one(kind, { id, key }),

    async create<K extends ConfigKind>({ principal, kind, body }: { principal: Principal; kind: K; body: CreateBody<K> }) {
      const { rootKey, subKey, dataType, ...values } = body as TCreateComponentConfigRequest & TCreateDeployerConfigRequest;
      const key = `${rootKey}.${subKey}`;
      const errors = await editErrors(db, kind, dataType ?? null, values);
      if (errors.length > 0) throw badRequest(errors);
      return db.transaction(async (tx) => {
        const id = await repo.insertDefinition(tx, kind, { rootKey, subKey, dataType: dataType ?? null, ...values });
        if (id === null) throw conflict(`Config ${key} exists already`);
        const created = await one(kind, { id }, tx);
        const stored = (await repo.selectDefinitionRow(tx, kind, id))!;
        await audit.record(tx, {
          action: KINDS[kind].createAction,
          user: principal.username,
          params: { id, key, dataType: dataType ?? 'string' },
          changes: diffChanges(KINDS[kind].entity, {}, { rootKey, subKey, dataType: dataType ?? null, ...auditedFields(kind, stored) }),
        });
        return created;
      });
    },

    async update<K extends ConfigKind>({ principal, kind, id, body }: { principal: Principal; kind: K; id: number; body: UpdateBody<K> }) {
      return db.transaction(async (tx) => {
        const before = await repo.selectDefinitionRow(tx, kind, id, true);
        if (!before) throw notFound(`${KINDS[kind].label} ${id}`);
        const values = body as repo.DefinitionValues;
        const errors = await editErrors(tx, kind, before.dataType, values);
        if (errors.length > 0) throw badRequest(errors);
        const changes = diffChanges(KINDS[kind].entity, auditedFields(kind, before), auditedFields(kind, { ...before, ...values }));
        if (changes.length > 0) {
          await repo.updateDefinition(tx, kind, id, values);
          await audit.record(tx, {
            action: KINDS[kind].updateAction,
            user: principal.username,
            params: { id, key: `${before.rootKey}.${before.subKey}` },
            changes,
          });
        }
        return one(kind, { id }, tx);
      });
    },

    async remove({ principal, kind, id }) {
      return db.transaction(async (tx) => {
        const before = await repo.selectDefinitionRow(tx, kind, id, true);
        if (!before) throw notFound(`${KINDS[kind].label} ${id}`);
        const key = `${before.rootKey}.${before.subKey}`;
        const using = await repo.selectMachinesUsingKey(tx, { kind, key, hiddenClassIds: hiddenClassIds(principal) });
        if (using.total > 0) {
          const more = using.total > using.names.length ? ` and ${using.total - using.names.length} more` : '';
          throw conflict(`Config ${key} is still used by ${using.total} machine(s): ${using.names.join(', ')}${more}; remove it from their configuration first`);
        }
        await repo.deleteDefinition(tx, kind, id);
        await audit.record(tx, {
          action: KINDS[kind].deleteAction,
          user: principal.username,
          params: { id, key },
          changes: diffChanges(KINDS[kind].entity, { rootKey: before.rootKey, subKey: before.subKey, dataType: before.dataType, ...auditedFields(kind, before) }, {
            rootKey: null,
            subKey: null,
            dataType: null,
            ...Object.fromEntries(Object.keys(auditedFields(kind, before)).map((k) => [k, null])),
          }),
        });
        return { ok: true as const };
      });
    },
  };
}
