/**
 * The table of the sites module (spec 1 §3 Site): `sites`, the sites of an
 * account. Written by `sites.repository.ts` and at creation from a draft.
 */
import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.schema.js';

export const sites = pgTable(
  'sites',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull().references(() => accounts.id),
    name: text('name').notNull(),
    urlFriendlyName: text('url_friendly_name').notNull(),
    domainName: text('domain_name').notNull(),
    port: integer('port').notNull().default(8080),
  },
  (t) => [index('sites_account_idx').on(t.accountId)],
);
