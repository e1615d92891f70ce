/**
 * The license files module (spec 1 §7): an account's signed license file and the
 * public key that verifies it. Provides `app.services.licenseFiles`
 * (`LicenseFileService`); its routes are tagged 'Account settings'.
 */
import { defineModule } from '../module.js';
import { createLicenseFileService } from './license-files.service.js';
import { licenseFileRoutes } from './license-files.routes.js';

export const licenseFilesModule = defineModule({
  name: 'licenseFiles',
  service: ({ db, licenseSigner }) => createLicenseFileService({ db, signer: licenseSigner }),
  routes: licenseFileRoutes,
});
