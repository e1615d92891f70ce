/**
 * The MMA protocol module (issue 27 point 2; DESIGN §17): the operation calls
 * of registered MMAs (claim, heartbeat, append, finish) on the worker's
 * leases, start rules and finish. Provides `app.services.mmaProtocol`
 * (`MmaProtocolService`). Its routes use the tag and the authentication of
 * the remote MMAs module (`modules/mma-agents`).
 */
import { defineModule } from '../module.js';
import { mmaAgentsModule } from '../mma-agents/mma-agents.module.js';
import { createMmaProtocolService } from './mma-protocol.service.js';
import { mmaProtocolRoutes } from './mma-protocol.routes.js';

export const mmaProtocolModule = defineModule({
  name: 'mmaProtocol',
  needs: [mmaAgentsModule],
  service: ({ db, events, store, cloud, agent }) => createMmaProtocolService({ db, events, store, cloud, settings: agent }),
  routes: mmaProtocolRoutes,
  tags: [],
});
