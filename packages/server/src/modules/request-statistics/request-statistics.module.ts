/**
 * The request statistics module (spec 2 §2.10, §7; DESIGN §14): what the probes
 * (`engine/probes/`) measured per machine. Provides `app.services.requestStatistics`
 * (`RequestStatisticsService`).
 */
import { defineModule } from '../module.js';
import { createRequestStatisticsService } from './request-statistics.service.js';
import { requestStatisticsRoutes } from './request-statistics.routes.js';

export const requestStatisticsModule = defineModule({
  name: 'requestStatistics',
  service: ({ db }) => createRequestStatisticsService({ db }),
  routes: requestStatisticsRoutes,
  tags: [{ name: 'Request statistics', description: 'What the probes of each running machine\'s launcher and site master URLs measured: last probe, average latency and success ratio for the hour, day and week (spec 2 §2.10, §3, §7; DESIGN §14).' }],
});
