/**
 * The cloud instances module (spec 2 §2.9, §7): machines' cloud instances, the
 * active one and former ones. Provides `app.services.cloudInstances`
 * (`CloudInstanceService`).
 */
import { defineModule } from '../module.js';
import { createCloudInstanceService } from './cloud-instances.service.js';
import { cloudInstanceRoutes } from './cloud-instances.routes.js';

export const cloudInstancesModule = defineModule({
  name: 'cloudInstances',
  service: ({ db }) => createCloudInstanceService({ db }),
  routes: cloudInstanceRoutes,
  tags: [{ name: 'Cloud instances', description: 'Cloud instances of machines, the active one and former ones: the Cloud Instances viewer (spec 2 §2.9, §3, §7).' }],
});
