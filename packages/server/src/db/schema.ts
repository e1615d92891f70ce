/**
 * The database schema (Drizzle): the index of every module's tables. Each module
 * or engine part owns its tables in a `<name>.schema.ts` beside the repository
 * that queries them; this file only re-exports them, so that `import … from
 * 'db/schema.js'` and the Drizzle handle (`client.ts`) see every table, and so
 * that drizzle-kit (`drizzle.config.ts` points here) finds them all. Migrations
 * under `migrations/` are generated from this index with
 * `npm run db:generate -w packages/server` and checked in; `schema.test.ts`
 * proves the index generates the last migration's snapshot.
 *
 * Sections of an account (properties on `accounts`; license, instance, backup and
 * idle on `account_settings`) carry their own `*Version` counter so that a stale
 * push is refused with 409 (DESIGN §5).
 *
 * Adding a table: put it in its module's `<name>.schema.ts` (a new file gets a
 * docstring naming its tables, their DESIGN or spec section and invariants),
 * import a referenced table from its own schema file (never from this index, so
 * that schema files do not import each other in a circle), add the file below
 * if it is new, and run `db:generate`.
 */
// Core: users and tokens, the audit trail.
export * from '../modules/auth/auth.schema.js';
export * from '../modules/audit/audit.schema.js';
export * from '../modules/sso/sso.schema.js';
// Catalogues.
export * from '../modules/mma/mma.schema.js';
export * from '../modules/mma-agents/mma-agents.schema.js';
export * from '../modules/mma-protocol/mma-protocol.schema.js';
export * from '../modules/catalogues/catalogues.schema.js';
export * from '../modules/images/images.schema.js';
export * from '../modules/library/library.schema.js';
export * from '../modules/config-catalogues/config-catalogues.schema.js';
export * from '../modules/templates/templates.schema.js';
// Accounts and machines.
export * from '../modules/accounts/accounts.schema.js';
export * from '../modules/account-settings/account-settings.schema.js';
export * from '../modules/account-keys/account-keys.schema.js';
export * from '../modules/drafts/drafts.schema.js';
export * from '../modules/sites/sites.schema.js';
export * from '../modules/machines/machines.schema.js';
export * from '../modules/backups/backups.schema.js';
export * from '../modules/notifications/notifications.schema.js';
export * from '../modules/updater/updater.schema.js';
export * from '../modules/freeze/freeze.schema.js';
export * from '../modules/notification-channels/notification-channels.schema.js';
// Engine parts.
export * from '../engine/cloud/cloud.schema.js';
export * from '../engine/tasks/tasks.schema.js';
export * from '../engine/operations/operations.schema.js';
export * from '../engine/desired-state/desired-state.schema.js';
export * from '../engine/issues/issues.schema.js';
export * from '../engine/schedules/schedules.schema.js';
export * from '../engine/probes/probes.schema.js';
export * from '../engine/rollouts/rollouts.schema.js';
export * from '../engine/history/history.schema.js';
export * from '../engine/push/push.schema.js';
