/**
 * The single sign-on module (issue 28 point 2; `modules/sso/README.md`): sign-in
 * at an OpenID provider (`OIDC_ISSUER`…), users found or made from the ID
 * token's claims. Provides `app.services.sso` (`SsoService`); needs auth (the
 * access token it issues) and audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { authModule } from '../auth/auth.module.js';
import { createSsoService } from './sso.service.js';
import { ssoRoutes } from './sso.routes.js';

export const ssoModule = defineModule({
  name: 'sso',
  needs: [authModule, auditModule],
  service: ({ db, sso }, { auth, audit }) => createSsoService({ db, sso, auth, audit }),
  routes: ssoRoutes,
  tags: [{ name: 'Single sign-on', description: 'Sign-in at an OpenID provider, users and their permissions from its claims (issue 28 point 2).' }],
});
