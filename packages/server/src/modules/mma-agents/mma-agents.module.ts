/**
 * The remote MMAs module (issue 27; DESIGN §17): registration tokens, the MMAs'
 * credentials and connections, and the MMA protocol's routes. Provides
 * `app.services.mmaAgents` (`MmaAgentsService`), whose `authenticate` the
 * `/api/v1` hook calls on the protocol's routes; needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createMmaAgentsService } from './mma-agents.service.js';
import { MMA_AGENT_PROTOCOL_TAG, mmaAgentsRoutes } from './mma-agents.routes.js';

export const mmaAgentsModule = defineModule({
  name: 'mmaAgents',
  needs: [auditModule],
  service: ({ db }, { audit }) => createMmaAgentsService({ db, audit }),
  routes: mmaAgentsRoutes,
  tags: [
    {
      name: MMA_AGENT_PROTOCOL_TAG,
      description:
        'The calls a remote MMA makes (issue 27; DESIGN §17): registration, then every call with its own authentication token (security scheme mmaAgentToken); user tokens are refused here.',
    },
  ],
});
