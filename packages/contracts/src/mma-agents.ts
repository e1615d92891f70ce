/**
 * Remote MMAs (issue 27 point 1; DESIGN §17): the machine management agents
 * that run a class's operations as processes of their own, on their own hosts.
 *
 * An admin creates a **registration token** for a class on the MMA screen
 * (`POST /mma/classes/{id}/registration-tokens`): shown once, single use,
 * valid {@link MMA_REGISTRATION_TOKEN_TTL_S} seconds. The MMA process exchanges
 * it (`POST /mma-agent/register`) for its own **authentication token** (the
 * credential it sends on every MMA protocol call), which the server keeps
 * hashed and an admin can revoke (`POST /mma/agents/{id}/revoke`). The terms are
 * GitLab Runner's (registration token, runner authentication token) and the
 * GitHub Actions runner's (a registration token exchanged once for the
 * runner's credential).
 */
import { z } from 'zod';
import { HOST_NAME_MESSAGE, HOST_NAME_PATTERN } from './mma.js';

/** How long a registration token can be exchanged, seconds (1 hour). */
export const MMA_REGISTRATION_TOKEN_TTL_S = 3600;
/** An MMA seen by the server within this many seconds is connected (it long-polls every 30 s at most, heartbeats every 5 s). */
export const MMA_AGENT_CONNECTED_S = 60;
/** The first characters of every registration token (a leaked one is recognisable, as GitLab's `glrt-`). */
export const MMA_REGISTRATION_TOKEN_PREFIX = 'mmar_';
/** The first characters of every MMA authentication token. */
export const MMA_AUTHENTICATION_TOKEN_PREFIX = 'mmat_';
/** Longest token accepted anywhere (ours are 5 + 43 characters). */
const MAX_TOKEN_LENGTH = 100;

/** `POST /mma/classes/{id}/registration-tokens`: the token, shown this once, and until when it can be exchanged. */
export const ZMmaRegistrationToken = z.object({
  mmaClassId: z.number().int(),
  token: z.string(),
  expiresAt: z.string(),
});
export type TMmaRegistrationToken = z.infer<typeof ZMmaRegistrationToken>;

/**
 * A registered MMA (`GET /mma/agents`): its class, the host and version it
 * registered with (updated by each call that names them), who created the
 * registration token it used, when it was last seen and from which address,
 * whether it is connected (seen within {@link MMA_AGENT_CONNECTED_S}), the
 * operations it runs now, and its revocation. `tokenHint` is the first
 * characters of its authentication token after the prefix, to tell two
 * credentials apart (never enough to use one).
 */
export const ZMmaAgent = z.object({
  id: z.number().int(),
  mmaClassId: z.number().int(),
  mmaClassName: z.string(),
  host: z.string(),
  version: z.string(),
  tokenHint: z.string(),
  registeredAt: z.string(),
  registeredBy: z.string(),
  lastSeenAt: z.string().nullable(),
  lastAddress: z.string().nullable(),
  connected: z.boolean(),
  runningOperations: z.number().int(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
});
export type TMmaAgent = z.infer<typeof ZMmaAgent>;
export const ZMmaAgentsResponse = z.object({ items: z.array(ZMmaAgent) });
export type TMmaAgentsResponse = z.infer<typeof ZMmaAgentsResponse>;

/** The MMA's own description, sent when it registers and on its calls: its host name and its version. */
export const ZMmaAgentIdentity = z.object({
  host: z.string().trim().min(1, 'Host is required').max(253).regex(HOST_NAME_PATTERN, HOST_NAME_MESSAGE),
  version: z.string().trim().min(1, 'Version is required').max(100),
});

/** `POST /mma-agent/register`: a registration token exchanged, once, for the MMA's authentication token. */
export const ZMmaAgentRegisterRequest = ZMmaAgentIdentity.extend({
  token: z.string().trim().min(1, 'Token is required').max(MAX_TOKEN_LENGTH),
});
export type TMmaAgentRegisterRequest = z.infer<typeof ZMmaAgentRegisterRequest>;

/** `POST /mma-agent/register`: the MMA's id and class, and its authentication token (kept by the MMA; the server keeps its hash). */
export const ZMmaAgentRegisterResponse = z.object({
  id: z.number().int(),
  mmaClassId: z.number().int(),
  token: z.string(),
});
export type TMmaAgentRegisterResponse = z.infer<typeof ZMmaAgentRegisterResponse>;

/** `GET /mma-agent/whoami`: the MMA the authentication token belongs to (a check that the credential works). */
export const ZMmaAgentSelf = z.object({ id: z.number().int(), mmaClassId: z.number().int(), host: z.string(), version: z.string() });
export type TMmaAgentSelf = z.infer<typeof ZMmaAgentSelf>;
