/**
 * Where `fleet login` keeps the session (issue 28 point 4): the server's URL,
 * the user and the access token, in `credentials.json` of the user's config
 * folder (`FLEET_CONFIG_DIR`, else `$XDG_CONFIG_HOME/fleet-console`, else
 * `~/.config/fleet-console`), the folder mode 0700 and the file 0600, as the
 * GitHub and AWS command lines keep theirs. `fleet logout` removes it.
 */
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A signed-in session: the server (`http://host:port`, no trailing slash), who, and the token until when. */
export interface Credentials {
  server: string;
  username: string;
  token: string;
  /** ISO time the token expires. */
  expiresAt: string;
}

/** The folder of the CLI's configuration for the environment `env`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FLEET_CONFIG_DIR) return env.FLEET_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'fleet-console');
}

/** The credentials file of `env`'s config folder. */
export const credentialsFile = (env: NodeJS.ProcessEnv = process.env) => join(configDir(env), 'credentials.json');

/** The saved session, or undefined when there is none (or the file is not one). */
export async function readCredentials(env: NodeJS.ProcessEnv = process.env): Promise<Credentials | undefined> {
  try {
    const saved = JSON.parse(await readFile(credentialsFile(env), 'utf8')) as Partial<Credentials>;
    return typeof saved.server === 'string' && typeof saved.token === 'string' ? (saved as Credentials) : undefined;
  } catch {
    return undefined;
  }
}

/** Saves the session (folder 0700, file 0600, both set again when they existed); answers the file's path. */
export async function writeCredentials(credentials: Credentials, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const file = credentialsFile(env);
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return file;
}

/** Forgets the session. */
export async function removeCredentials(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await rm(credentialsFile(env), { force: true });
}
