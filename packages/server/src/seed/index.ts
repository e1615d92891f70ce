/**
 * Seeding on first start (DESIGN §4): `demo` (the deterministic demo fleet and
 * the three demo users), `scale` (10,000 accounts and 100,000 machines for
 * benchmarks), or `none`. A database that already has users is left alone.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { GROUP_CUSTOMER_PRODUCTION_ACCESS, PERMISSION_WRITE } from '@fleet/contracts';
import type { Db } from '../db/client.js';
import { users } from '../db/schema.js';
import { hashPassword } from '../modules/auth/auth.service.js';
import { createSecretBox } from '../lib/secret-box.js';
import type { SeedKind } from '../config.js';
import { seedFleet } from './fleet.js';
import type { ObjectStore } from '../storage/object-store.js';
import { seedStoredFiles } from './stored-files.js';

export const DEMO_SIGN_INS = [
  { username: 'admin', password: 'admin', note: `write, ${GROUP_CUSTOMER_PRODUCTION_ACCESS}` },
  { username: 'operator', password: 'operator', note: 'write' },
  { username: 'lead', password: 'lead', note: `write, ${GROUP_CUSTOMER_PRODUCTION_ACCESS}: a second approver of admin's rollouts` },
  { username: 'viewer', password: 'viewer', note: 'read only' },
] as const;

/** Inserts the demo users admin, operator, lead (a second approver of rollout waves, issue 25) and viewer (DESIGN §4). */
export async function seedDemoUsers(db: Db): Promise<void> {
  const rows = [
    { username: 'admin', name: 'Ada Admin', email: 'admin@fleet.example', permissions: [PERMISSION_WRITE], groups: [GROUP_CUSTOMER_PRODUCTION_ACCESS] },
    { username: 'operator', name: 'Oscar Operator', email: 'operator@fleet.example', permissions: [PERMISSION_WRITE], groups: [] },
    { username: 'lead', name: 'Lee Lead', email: 'lead@fleet.example', permissions: [PERMISSION_WRITE], groups: [GROUP_CUSTOMER_PRODUCTION_ACCESS] },
    { username: 'viewer', name: 'Vera Viewer', email: 'viewer@fleet.example', permissions: [], groups: [] },
  ];
  for (const r of rows) {
    await db.insert(users).values({ ...r, passwordHash: await hashPassword(r.username) }).onConflictDoNothing();
  }
}

/**
 * Seeds `opts.kind` into an empty database (no users); answers whether it did.
 * With `opts.store`, the stored files too (default sample data files; demo
 * backups): without one (the test template) those rows are left out, since a
 * row must never lack its object.
 */
export async function seedIfEmpty(db: Db, opts: { kind: SeedKind; dataKey: string; log?: Logger; store?: ObjectStore }): Promise<boolean> {
  if (opts.kind === 'none') return false;
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  if ((row?.n ?? 0) > 0) return false;
  const started = Date.now();
  await seedDemoUsers(db);
  await seedFleet(db, { kind: opts.kind, secrets: createSecretBox(opts.dataKey) });
  const stored = opts.store ? await seedStoredFiles(db, opts.store, opts.kind) : { objects: 0 };
  // Planner statistics and the visibility map now, rather than whenever autovacuum
  // gets to the bulk load: until a table is vacuumed every index-only scan also
  // reads the heap (counting a broad search's prefix rows took 3.7 ms instead of 0.5).
  await db.execute(sql`vacuum (analyze)`);
  opts.log?.info({ kind: opts.kind, objects: stored.objects, ms: Date.now() - started }, 'seeded');
  return true;
}
