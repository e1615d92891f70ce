/**
 * The images module (spec 3 §2.2, §2.3, §7 IRMN versions, Cloud): IRMN versions,
 * SaaS images and the cloud provider's images (read and deleted through
 * `cloud`). Its routes use the catalogues module's tags 'IRMN versions' and
 * 'Cloud'. Provides `app.services.images` (`ImageService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createImageService } from './images.service.js';
import { imageRoutes } from './images.routes.js';

export const imagesModule = defineModule({
  name: 'images',
  needs: [auditModule],
  service: ({ db, cloud }, { audit }) => createImageService({ db, audit, cloud }),
  routes: imageRoutes,
});
