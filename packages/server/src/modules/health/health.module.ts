/**
 * The health module (DESIGN §4, §9): `GET /health` for supervisors and load
 * balancers. Routes only: no service; the check reads `app.deps.db`.
 */
import { defineModule } from '../module.js';
import { healthRoutes } from './health.routes.js';

export const healthModule = defineModule({
  name: 'health',
  routes: healthRoutes,
  tags: [{ name: 'Health', description: 'Liveness and database check, for supervisors and load balancers.' }],
});
