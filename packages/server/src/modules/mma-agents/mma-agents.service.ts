/**
 * The remote MMAs' credentials (issue 27 point 1; DESIGN §17; the terms are
 * GitLab Runner's and the GitHub Actions runner's, see `@fleet/contracts`
 * mma-agents):
 *
 * - `createRegistrationToken`: an admin makes a registration token for a class
 *   (`mmar_` + 32 random bytes, base64url), answered once; the server keeps
 *   its SHA-256. Valid {@link MMA_REGISTRATION_TOKEN_TTL_S} seconds, single
 *   use. 404 unknown class; 403 for Customer Production without group
 *   CustomerProductionAccess. Audited `CreateMmaRegistrationToken`.
 * - `register`: an MMA exchanges a registration token (once, before it
 *   expires) for its own authentication token (`mmat_` + 32 random bytes),
 *   kept hashed. 401 for a token that is unknown, used or expired (one
 *   answer for the three: no oracle). Audited `RegisterMmaAgent` by user
 *   `MMA`, naming who created the registration token.
 * - `authenticate`: the live agent of an authentication token, marked seen
 *   (time and address); 401 for an unknown or revoked token. Called by the
 *   `/api/v1` hook on every MMA protocol route.
 * - `list`: every agent with its connection (seen within
 *   {@link MMA_AGENT_CONNECTED_S} seconds) and the operations it runs.
 * - `revoke`: an admin revokes an agent's credential: its next call is
 *   refused. 404 unknown; 403 Customer Production without the group; 409
 *   already revoked. Audited `RevokeMmaAgent`.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  CLASS_CUSTOMER_PRODUCTION,
  MMA_AUTHENTICATION_TOKEN_PREFIX,
  MMA_REGISTRATION_TOKEN_PREFIX,
  MMA_REGISTRATION_TOKEN_TTL_S,
  type TMmaAgent,
  type TMmaAgentRegisterRequest,
  type TMmaAgentRegisterResponse,
  type TMmaRegistrationToken,
} from '@fleet/contracts';
import type { Db, Tx } from '../../db/client.js';
import { hasCustomerProductionAccess, type Principal } from '../../auth/principal.js';
import { conflict, forbidden, notFound, unauthorized } from '../../lib/problem.js';
import type { AuditService } from '../audit/audit.service.js';
import { selectClassForUpdate } from '../mma/mma.repository.js';
import * as repo from './mma-agents.repository.js';

/** The MMA an authentication token belongs to, as the protocol routes see it (`req.mmaAgent`). */
export interface MmaAgentPrincipal {
  id: number;
  classId: number;
  host: string;
  version: string;
  /**
   * An MMA the worker runs in its own process (`mma-protocol/in-process-mmas.ts`): it runs its class's
   * operations while the class is not remote, where a registered MMA runs them while it is.
   */
  inProcess?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `/api/v1` hook on MMA protocol routes (`config.mmaAgent`). */
    mmaAgent?: MmaAgentPrincipal;
  }
}

/** Most agents `GET /mma/agents` lists (each needs a registration an admin made). */
const MAX_AGENTS_LISTED = 1000;

/** `prefix` + 32 random bytes in base64url (43 characters). */
const newToken = (prefix: string) => prefix + randomBytes(32).toString('base64url');
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export interface MmaAgentsService {
  createRegistrationToken(o: { principal: Principal; classId: number }): Promise<TMmaRegistrationToken>;
  register(o: { body: TMmaAgentRegisterRequest; address: string }): Promise<TMmaAgentRegisterResponse>;
  authenticate(token: string, address: string): Promise<MmaAgentPrincipal>;
  list(): Promise<TMmaAgent[]>;
  revoke(o: { principal: Principal; id: number }): Promise<TMmaAgent>;
}

export function createMmaAgentsService({ db, audit }: { db: Db; audit: AuditService }): MmaAgentsService {
  /** The class `classId` locked for the change, 404 unknown, 403 Customer Production without the group. */
  async function classForChange(tx: Tx, principal: Principal, classId: number) {
    const found = await selectClassForUpdate(tx, classId);
    if (!found) throw notFound(`MMA class ${classId}`);
    if (classId === CLASS_CUSTOMER_PRODUCTION && !hasCustomerProductionAccess(principal)) {
      throw forbidden('The MMAs of the Customer Production class need group CustomerProductionAccess');
    }
    return found.c;
  }

  /** The agents as `GET /mma/agents` answers them: all, or agent `id` alone. */
  async function agents(id?: number): Promise<TMmaAgent[]> {
    const rows = await repo.selectAgents(db, { limit: MAX_AGENTS_LISTED, id });
    return rows.map(({ a, className, connected, running }) => ({
      id: a.id,
      mmaClassId: a.classId,
      mmaClassName: className,
      host: a.host,
      version: a.version,
      tokenHint: a.tokenHint,
      registeredAt: a.registeredAt.toISOString(),
      registeredBy: a.registeredBy,
      lastSeenAt: a.lastSeenAt?.toISOString() ?? null,
      lastAddress: a.lastAddress,
      connected,
      runningOperations: running,
      revokedAt: a.revokedAt?.toISOString() ?? null,
      revokedBy: a.revokedBy,
    }));
  }

  return {
    async createRegistrationToken({ principal, classId }) {
      const token = newToken(MMA_REGISTRATION_TOKEN_PREFIX);
      return db.transaction(async (tx) => {
        const c = await classForChange(tx, principal, classId);
        const expiresAt = await repo.insertRegistrationToken(tx, {
          classId,
          tokenHash: hashOf(token),
          createdBy: principal.username,
          ttlSeconds: MMA_REGISTRATION_TOKEN_TTL_S,
        });
        await audit.record(tx, {
          action: 'CreateMmaRegistrationToken',
          user: principal.username,
          params: { classId, className: c.name, expiresAt: expiresAt.toISOString() },
        });
        return { mmaClassId: classId, token, expiresAt: expiresAt.toISOString() };
      });
    },

    async register({ body, address }) {
      const token = newToken(MMA_AUTHENTICATION_TOKEN_PREFIX);
      return db.transaction(async (tx) => {
        const registration = await repo.useRegistrationToken(tx, hashOf(body.token));
        if (!registration) throw unauthorized('The registration token is unknown, expired or already used: an admin creates a new one on the MMA screen');
        const id = await repo.insertAgent(tx, {
          registrationId: registration.id,
          classId: registration.classId,
          tokenHash: hashOf(token),
          tokenHint: token.slice(MMA_AUTHENTICATION_TOKEN_PREFIX.length, MMA_AUTHENTICATION_TOKEN_PREFIX.length + 8),
          host: body.host,
          version: body.version,
          registeredBy: registration.createdBy,
          address,
        });
        await audit.record(tx, {
          action: 'RegisterMmaAgent',
          user: 'MMA',
          params: { agentId: id, classId: registration.classId, host: body.host, version: body.version, registeredBy: registration.createdBy, address },
        });
        return { id, mmaClassId: registration.classId, token };
      });
    },

    async authenticate(token, address) {
      const agent = token.startsWith(MMA_AUTHENTICATION_TOKEN_PREFIX) ? await repo.touchAgent(db, hashOf(token), address) : undefined;
      if (!agent) throw unauthorized('The MMA authentication token is unknown or revoked: register the MMA again');
      return agent;
    },

    list: () => agents(),

    async revoke({ principal, id }) {
      await db.transaction(async (tx) => {
        const agent = await repo.selectAgentForUpdate(tx, id);
        if (!agent) throw notFound(`MMA agent ${id}`);
        await classForChange(tx, principal, agent.classId);
        if (agent.revokedAt) throw conflict(`MMA agent ${id} was already revoked by ${agent.revokedBy ?? 'an admin'}`);
        await repo.revokeAgent(tx, id, principal.username);
        await audit.record(tx, {
          action: 'RevokeMmaAgent',
          user: principal.username,
          params: { agentId: id, classId: agent.classId, host: agent.host },
        });
      });
      return (await agents(id))[0]!;
    },
  };
}
