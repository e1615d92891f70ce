/**
 * The auth module (spec 1 §7 Auth and user; DESIGN §5): sign-in with a bearer JWT,
 * sign-out, the signed-in user and their password. Provides `app.services.auth`
 * (`AuthService`), whose `authenticate` the `/api/v1` hook and the push channel use;
 * needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createAuthService } from './auth.service.js';
import { authRoutes } from './auth.routes.js';

export const authModule = defineModule({
  name: 'auth',
  needs: [auditModule],
  service: ({ db, tokens, sso }, { audit }) =>
    createAuthService({ db, tokens, audit, localLoginOffFor: sso.localLogin ? undefined : (sso.oidc?.name ?? 'single sign-on') }),
  routes: authRoutes,
  tags: [{ name: 'Auth', description: 'Sign-in (a bearer JWT), sign-out, the signed-in user and their password (spec 1 §7 Auth and user).' }],
});
