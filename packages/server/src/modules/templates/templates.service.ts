/**
 * Templates (spec 1 §2 Manage Templates dialog, §3 Template, §5, §8): list, save,
 * update and delete templates of the kinds general, license-settings,
 * instance-settings and backup-settings.
 *
 * - A list holds the templates the user may see (public ones and their own; a
 *   private template is invisible, 404, to others) and the template accounts
 *   (accounts marked isTemplate, Customer Production ones only for the group),
 *   with `isTemplate: false` and `account` set, so the dialog can load an
 *   account's settings.
 * - Saving needs a name (400 'Template name is required'); the settings are
 *   checked against the kind's schema (400 naming every field) and normalised as
 *   an account's would be (backup times, version modes, AllInOne maxSites).
 * - Only the owner changes or deletes a template (403 otherwise); seeded public
 *   templates without an owner are anyone's with write permission.
 * - Audited CreateTemplate, UpdateTemplate, DeleteTemplate with the changes.
 */
import {
  TEMPLATE_VALUE_SCHEMAS,
  type TFieldError,
  type TTemplate,
  type TTemplateType,
} from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { badRequest, forbidden, notFound } from '../../lib/problem.js';
import { diffChanges, type AuditService } from '../audit/audit.service.js';
import { normaliseBackup, normaliseMachineConfig, readSection } from '../account-settings/account-rules.js';
import * as repo from './templates.repository.js';

/** The settings of a kind, parsed and normalised; field errors when they do not fit. */
function parseValues(type: TTemplateType, values: Record<string, unknown>): { values: Record<string, unknown>; errors: TFieldError[] } {
  const parsed = TEMPLATE_VALUE_SCHEMAS[type].safeParse(values);
  if (!parsed.success) {
    return {
      values: {},
      errors: parsed.error.issues.map((i) => ({
        propertyName: i.path.map(String).join('.'),
        errorMessage: i.message,
        attemptedValue: i.path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), values),
      })),
    };
  }
  const v = parsed.data as Record<string, unknown>;
  if (type === 'backup-settings') return { values: normaliseBackup(parsed.data as never), errors: [] };
  if (type === 'instance-settings') return { values: normaliseMachineConfig(parsed.data as never), errors: [] };
  if (type === 'license-settings') return { values: { ...v, maxSites: v.instancePolicy === 'AllInOne' ? 1 : v.maxSites }, errors: [] };
  return { values: v, errors: [] };
}

const toItem = (type: TTemplateType, row: repo.TemplateRow): TTemplate => ({
  ...row.values,
  id: row.id,
  type,
  name: row.name,
  isPublic: row.isPublic,
  isTemplate: true,
  account: null,
  owner: row.owner,
  updatedAt: row.updatedAt.toISOString(),
});

/** The settings of a template account for a kind, read leniently through the kind's schema. */
function accountValues(type: TTemplateType, { account: a, settings }: Awaited<ReturnType<typeof repo.selectTemplateAccounts>>[number]) {
  const schema = TEMPLATE_VALUE_SCHEMAS[type];
  if (type === 'general') {
    return readSection(schema, {
      classId: a.classId,
      description: a.description,
      customer: a.customer,
      managed: a.managed,
      whiteGlove: a.whiteGlove,
      autoTest: a.autoTest,
      autoTestBranch: a.autoTestBranch,
      maintainer: a.maintainer,
      contactName: a.contactName,
      contactEmail: a.contactEmail,
      contactPhone1: a.contactPhone1,
      contactPhone2: a.contactPhone2,
      billingPeriod: a.billingPeriod,
      billingAmount: a.billingAmount,
    });
  }
  const stored = type === 'license-settings' ? settings?.licenseConfig : type === 'instance-settings' ? settings?.machineConfig : settings?.backupConfig;
  return readSection(schema, stored ?? {});
}

export interface TemplateService {
  list(opts: { principal: Principal; type: TTemplateType }): Promise<TTemplate[]>;
  create(opts: { principal: Principal; type: TTemplateType; body: { name: string; isPublic: boolean } & Record<string, unknown> }): Promise<TTemplate>;
  update(opts: { principal: Principal; type: TTemplateType; id: number; body: { name: string; isPublic: boolean } & Record<string, unknown> }): Promise<TTemplate>;
  remove(opts: { principal: Principal; type: TTemplateType; id: number }): Promise<{ ok: true }>;
}

export function createTemplateService({ db, audit }: { db: Db; audit: AuditService }): TemplateService {
  const loadOwned = async (tx: Parameters<Parameters<Db['transaction']>[0]>[0], principal: Principal, type: TTemplateType, id: number) => {
    const row = await repo.selectTemplate(tx, type, id, principal.userId, true);
    if (!row) throw notFound(`Template ${id}`);
    if (row.ownerId !== null && row.ownerId !== principal.userId) throw forbidden(`Only the owner of template ${row.name} may change it`);
    return row;
  };

  return {
    async list({ principal, type }) {
      const [rows, templateAccounts] = await Promise.all([
        repo.selectTemplates(db, type, principal.userId),
        repo.selectTemplateAccounts(db, hiddenClassIds(principal)),
      ]);
      return [
        ...rows.map((r) => toItem(type, r)),
        ...templateAccounts.map((entry) => ({
          ...accountValues(type, entry),
          id: entry.account.id,
          type,
          name: entry.account.name,
          isPublic: true,
          isTemplate: false,
          account: { id: entry.account.id, name: entry.account.name },
          owner: null,
          updatedAt: null,
        })),
      ];
    },

    async create({ principal, type, body }) {
      const { name, isPublic, ...rest } = body;
      const parsed = parseValues(type, rest);
      if (parsed.errors.length > 0) throw badRequest(parsed.errors);
      return db.transaction(async (tx) => {
        const row = await repo.insertTemplate(tx, { type, name, isPublic, ownerId: principal.userId, values: parsed.values });
        await audit.record(tx, {
          action: 'CreateTemplate',
          user: principal.username,
          params: { type, templateId: row.id, name, isPublic },
          changes: diffChanges('Template', {}, { name, isPublic, ...parsed.values }),
        });
        return toItem(type, { ...row, owner: principal.username });
      });
    },

    async update({ principal, type, id, body }) {
      const { name, isPublic, ...rest } = body;
      const parsed = parseValues(type, rest);
      if (parsed.errors.length > 0) throw badRequest(parsed.errors);
      return db.transaction(async (tx) => {
        const before = await loadOwned(tx, principal, type, id);
        const row = await repo.updateTemplate(tx, id, { name, isPublic, values: parsed.values });
        await audit.record(tx, {
          action: 'UpdateTemplate',
          user: principal.username,
          params: { type, templateId: id, name },
          changes: diffChanges('Template', { name: before.name, isPublic: before.isPublic, ...before.values }, { name, isPublic, ...parsed.values }),
        });
        return toItem(type, { ...row, owner: before.owner });
      });
    },

    async remove({ principal, type, id }) {
      return db.transaction(async (tx) => {
        const row = await loadOwned(tx, principal, type, id);
        await repo.deleteTemplate(tx, id);
        await audit.record(tx, { action: 'DeleteTemplate', user: principal.username, params: { type, templateId: id, name: row.name } });
        return { ok: true as const };
      });
    },
  };
}
