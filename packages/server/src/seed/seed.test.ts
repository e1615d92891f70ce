/**
 * The demo fleet (DESIGN §4, §6): seeded twice into two fresh databases of the
 * test PostgreSQL, it has every class, add-ons as the console expects them,
 * machines that follow the instance policies, a match for every machine status
 * inside and outside Customer Production, and the same rows both times.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNT_CLASSES, CLASS_ADD_ON, CLASS_CUSTOMER_PRODUCTION, MACHINE_STATUSES } from '@fleet/contracts';
import { withDatabase } from '../../test/db-url.js';
import { connectDatabase, runMigrations, type Database } from '../db/client.js';
import { createSecretBox } from '../lib/secret-box.js';
import { seedFleet } from './fleet.js';
import { seedDemoUsers } from './index.js';
import { loadSoftwareSnapshot } from '../engine/desired-state/desired-state.repository.js';
import { resolveMachineConfig } from '../engine/desired-state/resolve.js';

const DATA_KEY = '00'.repeat(32);
const secrets = createSecretBox(DATA_KEY);

interface Seeded {
  database: Database;
  name: string;
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('serverUrl') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A new empty database, migrated, with the demo users and the demo fleet. */
async function seedFresh(): Promise<Seeded> {
  const name = `seed_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const database = connectDatabase(withDatabase(inject('serverUrl'), name), { max: 2 });
  await runMigrations(database.db);
  await seedDemoUsers(database.db);
  await seedFleet(database.db, { kind: 'demo', secrets });
  return { database, name };
}

let first: Seeded;
let second: Seeded;

async function rows<T extends Record<string, unknown>>(text: string, from: Seeded = first): Promise<T[]> {
  return (await from.database.pool.query<T>(text)).rows;
}

beforeAll(async () => {
  first = await seedFresh();
  second = await seedFresh();
});

afterAll(async () => {
  for (const seeded of [first, second]) {
    if (!seeded) continue;
    await seeded.database.close();
    await admin((c) => c.query(`drop database if exists ${seeded.name} with (force)`));
  }
});

describe('demo fleet', () => {
  it('has about 150 accounts of every class and about 400 machines', async () => {
    const [counts] = await rows<{ accounts: number; machines: number }>(
      'select (select count(*)::int from accounts) as accounts, (select count(*)::int from machines) as machines',
    );
    expect(counts?.accounts).toBeGreaterThanOrEqual(140);
    expect(counts?.accounts).toBeLessThanOrEqual(160);
    expect(counts?.machines).toBeGreaterThanOrEqual(350);
    expect(counts?.machines).toBeLessThanOrEqual(450);
    const classes = await rows<{ class_id: number; n: number }>('select class_id, count(*)::int as n from accounts group by class_id');
    for (const c of ACCOUNT_CLASSES) expect(classes.find((r) => r.class_id === c.id)?.n ?? 0, c.name).toBeGreaterThan(0);
    expect(classes.find((r) => r.class_id === CLASS_CUSTOMER_PRODUCTION)?.n).toBeGreaterThanOrEqual(18);
  });

  it('gives every account a unique URL name derived from its name', async () => {
    const accounts = await rows<{ name: string; url_friendly_name: string }>('select name, url_friendly_name from accounts');
    expect(new Set(accounts.map((a) => a.url_friendly_name)).size).toBe(accounts.length);
    for (const a of accounts) expect(a.url_friendly_name).toBe(a.name.toLowerCase().replace(/[\s-]+/g, '').replace(/\W/g, ''));
  });

  it('gives add-ons a non-add-on, non-template parent, its name, and no sites or machines', async () => {
    const addOns = await rows<{ name: string; parent_name: string | null; parent_class: number | null; parent_template: boolean | null; machines: number; sites: number }>(`
      select a.name, p.name as parent_name, p.class_id as parent_class, p.is_template as parent_template,
        (select count(*)::int from machines m where m.account_id = a.id) as machines,
        (select count(*)::int from sites s where s.account_id = a.id) as sites
      from accounts a left join accounts p on p.id = a.parent_id
      where a.class_id = ${CLASS_ADD_ON}`);
    expect(addOns.length).toBeGreaterThanOrEqual(5);
    for (const a of addOns) {
      expect(a.parent_name).not.toBeNull();
      expect(a.parent_class).not.toBe(CLASS_ADD_ON);
      expect(a.parent_template).toBe(false);
      expect(a.name).toBe(`${a.parent_name} add-on`);
      expect([a.machines, a.sites]).toEqual([0, 0]);
    }
  });

  it('has expired, open-ended and future accounts', async () => {
    const [r] = await rows<{ expired: number; open: number; future: number; total: number }>(`
      select count(*) filter (where expiration_time < '2026-11-01')::int as expired,
        count(*) filter (where expiration_time is null)::int as open,
        count(*) filter (where expiration_time >= '2026-11-01')::int as future,
        count(*)::int as total
      from accounts`);
    expect(r?.expired).toBeGreaterThanOrEqual(8);
    expect(r?.open).toBeGreaterThan(0);
    expect(r?.future).toBeGreaterThan((r?.total ?? 0) * 0.7);
  });

  it('follows the instance policy: AllInOne one launcher-and-site-master, IPSM a launcher plus one machine per site', async () => {
    const accounts = await rows<{ id: number; policy: string; sites: number; launchers: number; site_masters: number; both: number; machines: number; site_launchers: number }>(`
      select a.id, a.instance_policy as policy,
        (select count(*)::int from sites s where s.account_id = a.id) as sites,
        count(m.id) filter (where m.is_launcher)::int as launchers,
        count(m.id) filter (where m.is_site_master and m.site_id is not null)::int as site_masters,
        count(m.id) filter (where m.is_launcher and m.is_site_master)::int as both,
        count(m.id) filter (where m.is_launcher and not m.is_site_master and m.site_id is not null)::int as site_launchers,
        count(m.id)::int as machines
      from accounts a left join machines m on m.account_id = a.id
      where a.class_id <> ${CLASS_ADD_ON} and not a.is_template
      group by a.id`);
    for (const a of accounts) {
      if (a.policy === 'AllInOne') expect([a.sites, a.machines, a.both], `account ${a.id}`).toEqual([1, 1, 1]);
      else {
        expect(a.sites, `account ${a.id}`).toBeGreaterThanOrEqual(2);
        expect([a.launchers, a.both, a.site_launchers, a.site_masters, a.machines], `account ${a.id}`).toEqual([1, 0, 0, a.sites, a.sites + 1]);
      }
    }
    expect(new Set(accounts.map((a) => a.policy))).toEqual(new Set(['AllInOne', 'InstancePerSiteMaster']));
    const [mismatch] = await rows<{ n: number }>('select count(*)::int as n from machines m join accounts a on a.id = m.account_id where m.class_id <> a.class_id');
    expect(mismatch?.n).toBe(0);
  });

  it('has every machine status inside and outside Customer Production', async () => {
    const condition: Record<(typeof MACHINE_STATUSES)[number], string> = {
      needsAdmin: 'needs_admin',
      unmanaged: 'not managed',
      manualMaintenance: 'manual_maintenance',
      stopped: 'stop',
      turbo: 'turbo',
      obsolete: 'obsolete',
      idle: 'idle',
    };
    for (const status of MACHINE_STATUSES) {
      const [r] = await rows<{ cp: number; other: number }>(`
        select count(*) filter (where class_id = ${CLASS_CUSTOMER_PRODUCTION})::int as cp,
          count(*) filter (where class_id <> ${CLASS_CUSTOMER_PRODUCTION})::int as other
        from machines where ${condition[status]}`);
      expect(r?.cp, `${status} in Customer Production`).toBeGreaterThanOrEqual(1);
      expect(r?.other, `${status} outside Customer Production`).toBeGreaterThanOrEqual(1);
    }
    const [panic] = await rows<{ n: number }>('select count(*)::int as n from machines where needs_admin and fail_counter < 3');
    expect(panic?.n).toBe(0);
  });

  it('gives every machine one active cloud instance, stopped exactly when the machine is stopped or idle', async () => {
    const bad = await rows(`
      select m.id from machines m
      left join cloud_instances c on c.machine_id = m.id and c.active
      group by m.id, m.stop, m.idle
      having count(c.id) <> 1 or bool_or(c.status = 'stopped') <> (m.stop or m.idle)`);
    expect(bad).toEqual([]);
    const [idleWithoutSchedule] = await rows<{ n: number }>(`
      select count(*)::int as n from machines m join account_settings a on a.account_id = m.account_id
      where m.idle and jsonb_array_length(a.idle_schedules) = 0`);
    expect(idleWithoutSchedule?.n).toBe(0);
  });

  it('seals 2 to 5 launcher logins per account except add-ons', async () => {
    const perAccount = await rows<{ class_id: number; n: number }>(
      'select a.class_id, count(l.id)::int as n from accounts a left join launcher_logins l on l.account_id = a.id group by a.id, a.class_id',
    );
    for (const a of perAccount) {
      if (a.class_id === CLASS_ADD_ON) expect(a.n).toBe(0);
      else expect([2, 3, 4, 5]).toContain(a.n);
    }
    const [login] = await rows<{ password_enc: string }>('select password_enc from launcher_logins order by id limit 1');
    expect(secrets.open(login?.password_enc ?? '')).toMatch(/^[A-Za-z]{10}\d{2}[!#%*?]$/);
  });

  it('fills the catalogues: classes, one standby MMA instance, t2.medium as type 2, software of every key', async () => {
    const [r] = await rows<{ classes: number; instances: number; standby: number; type2: string; software: number; branches_missing: number; images: number; templates: number }>(`
      select (select count(*)::int from mma_classes) as classes,
        (select count(*)::int from mma_instances) as instances,
        (select count(*)::int from mma_instances where standby) as standby,
        (select name from instance_types where id = 2) as type2,
        (select count(distinct software)::int from software_commits) as software,
        (select count(*)::int from software_branches where repo_missing) as branches_missing,
        (select count(*)::int from saas_images) as images,
        (select count(distinct type)::int from templates) as templates`);
    expect(r).toEqual({ classes: 7, instances: 6, standby: 1, type2: 't2.medium', software: 19, branches_missing: 1, images: 14, templates: 4 });
    const [images] = await rows<{ unknown: number }>(
      'select count(*)::int as unknown from accounts a where a.vm_image_name is not null and not exists (select 1 from saas_images i where i.name = a.vm_image_name)',
    );
    expect(images?.unknown).toBe(0);
  });

  it('gives every machine the resolved desired versions, and a current version state that is its current versions', async () => {
    const snapshot = await loadSoftwareSnapshot(first.database.db);
    const configs = await rows<{ id: number; machine_config: Record<string, unknown>; desired: Record<string, string>[] }>(`
      select s.account_id as id, s.machine_config, array_agg(m.desired_versions) as desired
      from account_settings s join machines m on m.account_id = s.account_id group by s.account_id, s.machine_config`);
    for (const c of configs) {
      const { versions } = resolveMachineConfig(snapshot, c.machine_config);
      for (const desired of c.desired) expect(desired, `account ${c.id}`).toEqual(versions);
    }
    const [states] = await rows<{ machines: number; without: number; mismatched: number; historical: number }>(`
      select count(*)::int as machines,
        count(*) filter (where cur.id is null)::int as without,
        count(*) filter (where cur.id is not null and cur.refs is distinct from m.current_versions)::int as mismatched,
        (select count(*)::int from version_states where not current) as historical
      from machines m
      left join lateral (
        select v.id, (select coalesce(jsonb_object_agg(k, c->>'branchName' || '|' || (c->>'shortHash')), '{}'::jsonb)
                      from jsonb_each(v.components) e(k, c) where c <> 'null'::jsonb) as refs
        from version_states v where v.machine_id = m.id and v.current) cur on true`);
    expect(states).toMatchObject({ without: 0, mismatched: 0, historical: 2 * states!.machines });
  });

  it('writes the same rows on every run', async () => {
    const tables = [
      'accounts',
      'sites',
      'machines',
      'cloud_instances',
      'machine_tasks',
      'software_commits',
      'software_builds',
      'saas_images',
      'mma_instances',
      'component_configs',
      'templates',
      'version_states',
    ];
    for (const table of tables) {
      const digest = `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t.id), '')) as digest from ${table} t`;
      const [a] = await rows(digest, first);
      const [b] = await rows(digest, second);
      expect(a, table).toEqual(b);
    }
    const logins = 'select id, account_id, user_name, first_name, last_name, password_enc from launcher_logins order by id';
    const [a, b] = [await rows<{ password_enc: string }>(logins, first), await rows<{ password_enc: string }>(logins, second)];
    expect(a.map(({ password_enc, ...rest }) => ({ ...rest, password: secrets.open(password_enc) }))).toEqual(
      b.map(({ password_enc, ...rest }) => ({ ...rest, password: secrets.open(password_enc) })),
    );
  });

  it('moves the id sequences past the seeded rows', async () => {
    const [r] = await rows<{ id: number; max: number }>(`
      with inserted as (
        insert into accounts (name, url_friendly_name, creator, class_id, maintainer)
        values ('Sequence Check', 'sequencecheck', 'test', 1, 'devops@fleet.example') returning id
      ) select (select id from inserted) as id, (select max(id)::int from accounts) as max`, second);
    expect(r?.id).toBeGreaterThan(r?.max ?? 0);
  });
});
