/**
 * Catalogue tables served by the catalogues module (spec 1 §3 Instance type,
 * licenseConfig features and reporting categories; spec 3 §2.1 Software version
 * picker, §3 Region, Branch, Commit, Build): `regions`, `instance_types`,
 * `software_branches`, `software_commits`, `software_builds`, `features`,
 * `reporting_categories`, `customers`. Seeded; `catalogues.repository.ts` adds
 * customers and marks commits breaking, the desired-state engine records newly
 * followed commits (`engine/desired-state`).
 *
 * Invariants: region cloud codes, feature, reporting category and customer
 * names are unique; a commit belongs to a branch (`branch_id`) and is found by
 * (software, short hash).
 */
import { boolean, doublePrecision, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';

export const regions = pgTable('regions', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  cloudCode: text('cloud_code').notNull().unique(),
});

export const instanceTypes = pgTable('instance_types', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  cloudCode: text('cloud_code').notNull(),
  storageSize: integer('storage_size').notNull(),
  memorySize: doublePrecision('memory_size'),
  cloudCreditCost: doublePrecision('cloud_credit_cost').notNull(),
  isRedis: boolean('is_redis').notNull().default(false),
});

export const softwareBranches = pgTable('software_branches', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  repo: text('repo').notNull(),
  repoMissing: boolean('repo_missing').notNull().default(false),
});

export const softwareCommits = pgTable(
  'software_commits',
  {
    id: serial('id').primaryKey(),
    software: text('software').notNull(),
    branchId: integer('branch_id').notNull().references(() => softwareBranches.id),
    shortHash: text('short_hash').notNull(),
    fullHash: text('full_hash').notNull(),
    author: text('author').notNull(),
    isBreaking: boolean('is_breaking').notNull().default(false),
    breakingMsg: text('breaking_msg'),
    timestamp: ts('timestamp').notNull(),
    message: text('message').notNull(),
    tags: jsonb('tags').$type<{ id: number; name: string }[]>().notNull().default([]),
    builds: jsonb('builds').$type<{ name: string; type: string; hash: string }[]>().notNull().default([]),
  },
  (t) => [
    index('software_commits_software_idx').on(t.software, t.timestamp),
    // The States viewer's Desired page looks up the commits its versions name (`{branch}|{shortHash}`).
    index('software_commits_hash_idx').on(t.software, t.shortHash),
  ],
);

export const softwareBuilds = pgTable('software_builds', {
  id: serial('id').primaryKey(),
  software: text('software').notNull(),
  name: text('name').notNull(),
  url: text('url').notNull(),
  lastModified: ts('last_modified').notNull(),
  size: integer('size').notNull(),
  hash: text('hash').notNull(),
  type: text('type').notNull(),
});

export const features = pgTable('features', { id: serial('id').primaryKey(), name: text('name').notNull().unique() });

export const reportingCategories = pgTable('reporting_categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
});

export const customers = pgTable('customers', { id: serial('id').primaryKey(), name: text('name').notNull().unique() });
