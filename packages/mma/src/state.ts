/**
 * The MMA's state file (README "The state file"; default `./.mma-state.json`,
 * mode 0600): the credential (`mmat_…`) a registration token was exchanged
 * for, so that the next starts reuse it instead of registering again.
 *
 * Shape (JSON): `{ server, agentId, mmaClassId, host, token, registeredAt,
 * registrationTokenSha256 }`; the last is the SHA-256 of the registration
 * token used, so that a start with the same `--token mmar_…` (a service unit
 * that always passes it) reuses the credential, and a start with another
 * registration token registers anew.
 */
import { createHash } from 'node:crypto';
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { MMA_AUTHENTICATION_TOKEN_PREFIX, MMA_REGISTRATION_TOKEN_PREFIX } from '@fleet/contracts';
import type { MmaClient } from './client.js';
import type { MmaLogger } from './logger.js';

export const DEFAULT_STATE_FILE = './.mma-state.json';

export const ZMmaState = z.object({
  server: z.string(),
  agentId: z.number().int(),
  mmaClassId: z.number().int(),
  host: z.string(),
  token: z.string().startsWith(MMA_AUTHENTICATION_TOKEN_PREFIX),
  registeredAt: z.string(),
  registrationTokenSha256: z.string(),
});
export type MmaState = z.infer<typeof ZMmaState>;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The state in `file`, or undefined when there is none; throws when it cannot be read or is not a state file. */
export async function readState(file: string): Promise<MmaState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Cannot read the state file ${file}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return ZMmaState.parse(JSON.parse(text));
  } catch (err) {
    throw new Error(`${file} is not an MMA state file; move it away or name another with --state`, { cause: err });
  }
}

/** Writes `state` to `file` with mode 0600 (through a temporary file and a rename: never half written). */
export async function writeState(file: string, state: MmaState): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/** A token that is neither a registration token nor a credential. */
export class TokenFormatError extends Error {}

/**
 * The credential to call the server with (README "Registering"):
 * - `token` is a credential (`mmat_…`): it, as it is;
 * - `token` is a registration token (`mmar_…`): the state file's credential
 *   when that file holds the one this same token gave on this server, else
 *   the token exchanged (`POST /mma-agent/register`, once) and the credential
 *   saved in the state file;
 * - no `token`: the state file's credential (an error without one).
 *
 * Throws {@link TokenFormatError} for a token of another form, the client's
 * CredentialRejectedError when the registration token is refused.
 */
export async function resolveCredential(o: {
  token: string | undefined;
  stateFile: string;
  server: string;
  host: string;
  version: string;
  client: MmaClient;
  log: MmaLogger;
  signal?: AbortSignal;
}): Promise<string> {
  const { token, stateFile, server, log } = o;
  if (token?.startsWith(MMA_AUTHENTICATION_TOKEN_PREFIX)) return token;
  const state = await readState(stateFile);
  if (token === undefined) {
    if (!state) throw new TokenFormatError(`No --token, and no credential in ${stateFile}: pass a registration token (${MMA_REGISTRATION_TOKEN_PREFIX}…) from the MMA screen`);
    if (state.server !== server) log.warn('The state file was written for another server', { stateFile, server: state.server });
    log.info('Using the credential in the state file', { stateFile, agentId: state.agentId });
    return state.token;
  }
  if (!token.startsWith(MMA_REGISTRATION_TOKEN_PREFIX)) {
    throw new TokenFormatError(`--token must be a registration token (${MMA_REGISTRATION_TOKEN_PREFIX}…) or an MMA credential (${MMA_AUTHENTICATION_TOKEN_PREFIX}…)`);
  }
  if (state && state.server === server && state.registrationTokenSha256 === sha256(token)) {
    log.info('This registration token was exchanged already: using the credential in the state file', { stateFile, agentId: state.agentId });
    return state.token;
  }
  const registered = await o.client.register({ token, host: o.host, version: o.version }, o.signal);
  await writeState(stateFile, {
    server,
    agentId: registered.id,
    mmaClassId: registered.mmaClassId,
    host: o.host,
    token: registered.token,
    registeredAt: new Date().toISOString(),
    registrationTokenSha256: sha256(token),
  });
  log.info('Registered; credential saved', { agentId: registered.id, mmaClassId: registered.mmaClassId, stateFile });
  return registered.token;
}
