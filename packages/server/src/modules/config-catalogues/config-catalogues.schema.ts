/**
 * Tables of the config catalogues module (spec 3 §2.5 Component Configs and
 * Deployer Configs, §3; spec 2 §3 Component config definition; DESIGN §6
 * component config defaults): `component_configs`, `deployer_configs`. Seeded;
 * read by `config-catalogues.repository.ts`, the machine configs and the images.
 *
 * Invariants: a definition is keyed `rootKey.subKey`; `versionId` and
 * `deprecatedAtVersionId` name IRMN versions (`irmn_versions`).
 */
import { boolean, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { irmnVersions } from '../images/images.schema.js';

export const componentConfigs = pgTable('component_configs', {
  id: serial('id').primaryKey(),
  rootKey: text('root_key').notNull(),
  subKey: text('sub_key').notNull(),
  dataType: text('data_type'),
  protected: boolean('protected').notNull().default(false),
  siteSpecific: boolean('site_specific').notNull().default(false),
  versionId: integer('version_id').references(() => irmnVersions.id),
  deprecatedAtVersionId: integer('deprecated_at_version_id').references(() => irmnVersions.id),
  saasDefaultValue: text('saas_default_value'),
  onPremDefaultValue: text('on_prem_default_value'),
  linuxSpecificValue: text('linux_specific_value'),
});

export const deployerConfigs = pgTable('deployer_configs', {
  id: serial('id').primaryKey(),
  rootKey: text('root_key').notNull(),
  subKey: text('sub_key').notNull(),
  dataType: text('data_type'),
  protected: boolean('protected').notNull().default(false),
  versionId: integer('version_id').references(() => irmnVersions.id),
  deprecatedAtVersionId: integer('deprecated_at_version_id').references(() => irmnVersions.id),
  defaultValue: text('default_value'),
});
