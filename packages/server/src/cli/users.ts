/**
 * `fleet users <command>` (the command line, issue 28 point 4), also
 * `npm run users -- <command>`: manage console users (DESIGN §4).
 *
 *   add <username> --name <name> --email <email> [--password <pw>] [--permission write] [--group G]...
 *   passwd <username> [--password <pw>]       (prompts when --password is absent)
 *   grant <username> (--permission P | --group G)...
 *   revoke <username> (--permission P | --group G)...
 *   disable <username> | enable <username>
 *   list
 *
 * Uses `DATABASE_URL`, else the embedded database of a running server, else starts
 * the embedded database under `DATA_DIR` for the duration of the command. Changes
 * apply to signed-in users at their next request.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig, loadOrCreateSecrets } from '../config.js';
import { connectDatabase, runMigrations, type Database } from '../db/client.js';
import { embeddedUrlFile, startEmbeddedPostgres } from '../db/embedded.js';
import { users } from '../db/schema.js';
import { hashPassword } from '../modules/auth/auth.service.js';

const USAGE = `Usage: fleet users <add|passwd|grant|revoke|disable|enable|list> [username] [options]
  add <username> --name <name> --email <email> [--password <pw>] [--permission write] [--group <group>]
  passwd <username> [--password <pw>]
  grant|revoke <username> [--permission <p>]... [--group <g>]...
  disable|enable <username>
  list`;

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function open(): Promise<{ database: Database; done(): Promise<void> }> {
  const config = loadConfig();
  if (config.databaseUrl) {
    const database = connectDatabase(config.databaseUrl, { max: 2 });
    return { database, done: () => database.close() };
  }
  const file = embeddedUrlFile(config.dataDir);
  if (existsSync(file)) {
    const url = readFileSync(file, 'utf8').trim();
    if (await reachable(url)) {
      const database = connectDatabase(url, { max: 2 });
      return { database, done: () => database.close() };
    }
  }
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, password: loadOrCreateSecrets(config.dataDir).postgresPassword });
  const database = connectDatabase(embedded.url, { max: 2 });
  await runMigrations(database.db);
  return {
    database,
    async done() {
      await database.close();
      await embedded.stop();
    },
  };
}

async function promptPassword(): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const pw = await rl.question('New password: ');
  rl.close();
  return pw;
}

function fail(message: string): never {
  console.error(message);
  console.error(USAGE);
  process.exit(2);
}

/**
 * Runs one users command of `args` (`['add', 'pat', '--name', …]`) against the
 * database (see the module docstring); prints what it did. A bad command line
 * exits 2 with the usage; a refused change (an unknown or existing user, a
 * short password) throws.
 */
export async function runUsersCommand(args: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      permission: { type: 'string', multiple: true },
      group: { type: 'string', multiple: true },
    },
  });
  const [command, username] = positionals;
  if (!command) fail('A command is required.');
  if (command !== 'list' && !username) fail(`${command} needs a username.`);

  const { database, done } = await open();
  const { db } = database;
  try {
    const existing = username ? (await db.select().from(users).where(eq(users.username, username)))[0] : undefined;
    if (command !== 'list' && command !== 'add' && !existing) throw new Error(`No user named '${username}'`);
    switch (command) {
      case 'list': {
        const rows = await db.select().from(users).orderBy(asc(users.username));
        console.table(
          rows.map((u) => ({ username: u.username, name: u.name, email: u.email, permissions: u.permissions.join(','), groups: u.groups.join(','), disabled: u.disabled })),
        );
        break;
      }
      case 'add': {
        if (existing) throw new Error(`User '${username}' already exists`);
        if (!values.name || !values.email) fail('add needs --name and --email.');
        const password = values.password ?? (await promptPassword());
        if (password.length < 8) throw new Error('The password needs at least 8 characters');
        await db.insert(users).values({
          username: username!,
          name: values.name,
          email: values.email,
          passwordHash: await hashPassword(password),
          permissions: values.permission ?? [],
          groups: values.group ?? [],
        });
        console.log(`Added ${username}.`);
        break;
      }
      case 'passwd': {
        const password = values.password ?? (await promptPassword());
        if (password.length < 8) throw new Error('The password needs at least 8 characters');
        await db.update(users).set({ passwordHash: await hashPassword(password) }).where(eq(users.id, existing!.id));
        console.log(`Password of ${username} changed.`);
        break;
      }
      case 'grant':
      case 'revoke': {
        const perms = values.permission ?? [];
        const groups = values.group ?? [];
        if (perms.length + groups.length === 0) fail(`${command} needs --permission or --group.`);
        const apply = (list: string[], items: string[]) =>
          command === 'grant' ? [...new Set([...list, ...items])] : list.filter((x) => !items.includes(x));
        await db
          .update(users)
          .set({ permissions: apply(existing!.permissions, perms), groups: apply(existing!.groups, groups) })
          .where(eq(users.id, existing!.id));
        console.log(`${command === 'grant' ? 'Granted' : 'Revoked'} ${[...perms, ...groups].join(', ')} ${command === 'grant' ? 'to' : 'from'} ${username}.`);
        break;
      }
      case 'disable':
      case 'enable':
        await db.update(users).set({ disabled: command === 'disable' }).where(eq(users.id, existing!.id));
        console.log(`${username} ${command}d.`);
        break;
      default:
        fail(`Unknown command '${command}'.`);
    }
  } finally {
    await done();
  }
}

// Run as a script (`npm run users`): the command line's arguments.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runUsersCommand(process.argv.slice(2)).catch((err: Error) => {
    console.error(`Error: ${err.message}`);
    process.exit(1);
  });
}
