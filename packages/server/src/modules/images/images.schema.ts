/**
 * Tables of the images module (spec 3 §2.2 IRMN Versions, §2.3 SaaS Images, §3):
 * `irmn_versions`, `saas_images`, `saas_image_usage_deltas`. Written by `images.repository.ts`, the seed,
 * and the agent's CreateImage effects (`engine/operations`).
 *
 * Invariants: an IRMN version name is unique; a SaaS image names its cloud image
 * and region by value and its IRMN version by id.
 */
import { boolean, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';

export const irmnVersions = pgTable('irmn_versions', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  isDefault: boolean('is_default').notNull().default(false),
  status: text('status').notNull(),
});

export const saasImages = pgTable('saas_images', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  region: text('region').notNull(),
  description: text('description').notNull().default(''),
  irmnVersionId: integer('irmn_version_id').references(() => irmnVersions.id),
  official: boolean('official').notNull().default(false),
  active: boolean('active').notNull().default(true),
  jumpStart: boolean('jump_start').notNull().default(false),
  jumpStartConfig: jsonb('jump_start_config').$type<Record<string, unknown>>(),
  osType: text('os_type').notNull().default('Windows'),
  cloudImage: text('cloud_image').notNull(),
});

/**
 * Live accounts counted by (image name, class), the SaaS images list's usage
 * count (spec 3 §2.3), as insert-only deltas: a row trigger on `accounts`
 * (migration `0028_saas_image_usage`) adds +1/-1 rows when a live account with an
 * image appears, leaves, changes image or changes class, so concurrent writers
 * never wait on a shared counter row; `compactSaasImageUsage`
 * (`db/account-counts.ts`) folds them into one row per (image, class). The list
 * sums these few rows instead of reading every live account.
 */
export const saasImageUsageDeltas = pgTable('saas_image_usage_deltas', {
  imageName: text('image_name').notNull(),
  classId: integer('class_id').notNull(),
  n: integer('n').notNull(),
});
