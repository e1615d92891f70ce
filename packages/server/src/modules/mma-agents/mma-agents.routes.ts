/**
 * Remote MMA calls (issue 27 point 1; DESIGN §17): on the MMA screen, an
 * admin's registration tokens and revocations and everyone's list of agents
 * (tag MMA); and the MMA protocol's own routes under `/mma-agent/`
 * (tag 'MMA agent protocol'), which an MMA calls with its authentication
 * token (`config.mmaAgent`: the `/api/v1` hook refuses user tokens there, and
 * MMA tokens everywhere else).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZIdParams,
  ZMmaAgent,
  ZMmaAgentRegisterRequest,
  ZMmaAgentRegisterResponse,
  ZMmaAgentSelf,
  ZMmaAgentsResponse,
  ZMmaRegistrationToken,
} from '@fleet/contracts';

/** The OpenAPI tag of the routes an MMA calls. */
export const MMA_AGENT_PROTOCOL_TAG = 'MMA agent protocol';

export const mmaAgentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/mma/classes/:id/registration-tokens',
    {
      config: { requireAdmin: true, problems: [404] },
      schema: {
        operationId: 'createMmaRegistrationToken',
        description:
          "Creates a registration token for the class's remote MMAs (issue 27 point 1): the token is in this answer only (the server keeps its SHA-256), is exchanged once with `POST /mma-agent/register` and expires after an hour. 403 for class Customer Production without group CustomerProductionAccess. Audited.",
        tags: ['MMA'],
        summary: 'Create a registration token for an MMA (audited)',
        params: ZIdParams,
        response: { 200: ZMmaRegistrationToken },
      },
    },
    (req) => app.services.mmaAgents.createRegistrationToken({ principal: req.principal!, classId: req.params.id }),
  );

  app.get(
    '/mma/agents',
    {
      schema: {
        operationId: 'listMmaAgents',
        description:
          'The registered MMAs of every class (issue 27 point 1): host, version, who created their registration token, last seen and from where, connected (seen within 60 s), operations running, revocation.',
        tags: ['MMA'],
        summary: 'Registered MMAs and their connection',
        response: { 200: ZMmaAgentsResponse },
      },
    },
    async () => ({ items: await app.services.mmaAgents.list() }),
  );

  app.post(
    '/mma/agents/:id/revoke',
    {
      config: { requireAdmin: true, problems: [409] },
      schema: {
        operationId: 'revokeMmaAgent',
        description:
          "Revokes an MMA's authentication token (issue 27 point 1): its next call is refused (401). 403 for class Customer Production without group CustomerProductionAccess; 409 when it was already revoked. Answers the agent. Audited.",
        tags: ['MMA'],
        summary: "Revoke an MMA's credential (audited)",
        params: ZIdParams,
        response: { 200: ZMmaAgent },
      },
    },
    (req) => app.services.mmaAgents.revoke({ principal: req.principal!, id: req.params.id }),
  );

  app.post(
    '/mma-agent/register',
    {
      config: { public: true, problems: [401] },
      schema: {
        operationId: 'registerMmaAgent',
        description:
          "An MMA exchanges a registration token (made by an admin on the MMA screen) for its own authentication token, which it sends on every other MMA protocol call (issue 27; GitLab Runner's and the GitHub Actions runner's registration). The registration token works once and for an hour; 401 when it is unknown, used or expired. Audited (user MMA).",
        tags: [MMA_AGENT_PROTOCOL_TAG],
        summary: 'Register an MMA',
        body: ZMmaAgentRegisterRequest,
        response: { 200: ZMmaAgentRegisterResponse },
      },
    },
    (req) => app.services.mmaAgents.register({ body: req.body, address: req.ip }),
  );

  app.get(
    '/mma-agent/whoami',
    {
      config: { mmaAgent: true },
      schema: {
        operationId: 'getMmaAgentSelf',
        description: 'The MMA the authentication token belongs to (its id, class, host and version): a check that the credential works.',
        tags: [MMA_AGENT_PROTOCOL_TAG],
        summary: 'The calling MMA',
        response: { 200: ZMmaAgentSelf },
      },
    },
    (req) => {
      const agent = req.mmaAgent!;
      return { id: agent.id, mmaClassId: agent.classId, host: agent.host, version: agent.version };
    },
  );
};
