/**
 * Helpers of the account lifecycle tests: find seeded accounts of a kind, read an
 * account, build push bodies from what was read, create accounts through a draft.
 */
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { accountPropertiesOf, type TAccountDetail, type TCreateAccountRequest, type TUserActivity } from '@fleet/contracts';
import { accounts, accountSettings } from '../src/db/schema.js';
import type { TestApp } from './harness.js';

/** The first live seeded account matching `where` (ordered by id). */
export async function seededAccountId(t: TestApp, where: { classId?: number; notClassId?: number; isTemplate?: boolean; policy?: string; ssl?: boolean }) {
  const [row] = await t.database.db
    .select({ id: accounts.id })
    .from(accounts)
    .innerJoin(accountSettings, eq(accountSettings.accountId, accounts.id))
    .where(
      and(
        isNull(accounts.deletedAt),
        where.classId !== undefined ? eq(accounts.classId, where.classId) : undefined,
        where.notClassId !== undefined ? ne(accounts.classId, where.notClassId) : undefined,
        eq(accounts.isTemplate, where.isTemplate ?? false),
        where.policy ? eq(accounts.instancePolicy, where.policy) : undefined,
        where.ssl !== undefined ? sql`(${accountSettings.machineConfig}->>'enableSsl')::boolean = ${where.ssl}` : undefined,
      ),
    )
    .orderBy(asc(accounts.id))
    .limit(1);
  if (!row) throw new Error(`no seeded account for ${JSON.stringify(where)}`);
  return row.id;
}

export async function detail(t: TestApp, id: number, as = 'admin'): Promise<TAccountDetail> {
  const res = await t.call({ method: 'GET', url: `/accounts/${id}`, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TAccountDetail;
}

/** The Push Account Properties body of what was read. */
export function propertiesBody(a: TAccountDetail) {
  return { ...accountPropertiesOf(a), version: a.versions.properties };
}

/** The newest audit activities of `action` on the account. */
export async function activities(t: TestApp, accountId: number | undefined, action: string): Promise<TUserActivity[]> {
  const query: Record<string, string> = { action };
  if (accountId) query.accountId = String(accountId);
  const res = await t.call({ method: 'GET', url: '/user-activities', as: 'admin', query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TUserActivity[];
}

/** Field errors of a 400 as `propertyName: errorMessage`. */
export function fieldErrors(res: { statusCode: number; body: string; json(): unknown }): string[] {
  expect(res.statusCode, res.body).toBe(400);
  return ((res.json() as { errors?: { propertyName: string; errorMessage: string }[] }).errors ?? []).map((e) => `${e.propertyName}: ${e.errorMessage}`);
}

let counter = 0;
/** A valid minimal creation payload (AllInOne on an active us-east-1 image) with a unique name. */
export function creationPayload(extra: Partial<TCreateAccountRequest> = {}): TCreateAccountRequest {
  counter += 1;
  return {
    name: `Lifecycle Test ${process.pid} ${counter}`,
    contactName: 'Casey Contact',
    contactEmail: 'casey@example.com',
    machineConfig: { vmImageName: 'irmn-8.1.3-win2022-use1' },
    ...extra,
  };
}

/** Creates a draft and the account from it; answers the account id. */
export async function createAccount(t: TestApp, body: TCreateAccountRequest, as = 'admin'): Promise<number> {
  const draft = await t.call({ method: 'POST', url: '/accounts', as, body });
  expect(draft.statusCode, draft.body).toBe(200);
  const created = await t.call({ method: 'POST', url: '/accounts/create-from-draft', as, body: { draftAccountId: draft.json().draftAccountId } });
  expect(created.statusCode, created.body).toBe(200);
  return created.json().accountId as number;
}
