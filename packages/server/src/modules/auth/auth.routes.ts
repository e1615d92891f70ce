/** `POST /auth/login`, `POST /auth/logout`, `GET /user/me`, `PUT /user/password` (spec 1 §7). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZChangePasswordRequest, ZLoginRequest, ZLoginResponse, ZOk, ZUserMe } from '@fleet/contracts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login',
    {
      config: { public: true, problems: [401, 403] },
      schema: {
        operationId: 'login',
        description:
          'Signs in with username and password and answers a bearer JWT with its expiry (DESIGN §5, spec 1 §7 Auth and user). Wrong credentials answer 401; after 5 failed sign-ins of a username from one address within a minute, 429 with `Retry-After`; with `LOCAL_LOGIN=false` (single sign-on only, issue 28 point 2), 403. Every attempt is audited.',
        tags: ['Auth'],
        summary: 'Sign in; 401 on wrong credentials, 429 after 5 failures a minute',
        body: ZLoginRequest,
        response: { 200: ZLoginResponse },
      },
    },
    (req) => app.services.auth.login({ ...req.body, address: req.ip }),
  );

  app.post(
    '/auth/logout',
    {
      config: { selfService: true },
      schema: {
        operationId: 'logout',
        description: 'Revokes the token of this request (its jti): later calls with it answer 401 (spec 1 §7 Auth and user).',
        tags: ['Auth'],
        summary: 'Revoke the token',
        response: { 200: ZOk },
      },
    },
    async (req) => {
      await app.services.auth.logout(req.principal!);
      return { ok: true as const };
    },
  );

  app.get(
    '/user/me',
    {
      schema: {
        operationId: 'getCurrentUser',
        description:
          'The signed-in user: name, email, roles, permissions and groups, read from the database at each request (spec 1 §3 Session state, §6, §7 Auth and user). `roles` is not stored: it names what the permissions and groups allow, one of `admin` (permission `admin`, or `write` with group CustomerProductionAccess), `operator` (`write`) and `viewer` (neither).',
        tags: ['Auth'],
        summary: 'The signed-in user',
        response: { 200: ZUserMe },
      },
    },
    (req) => app.services.auth.me(req.principal!),
  );

  app.put(
    '/user/password',
    {
      config: { selfService: true },
      schema: {
        operationId: 'changePassword',
        description:
          "Changes the signed-in user's password: the current password must match (400 naming `currentPassword` otherwise) and the new one has at least 8 characters.",
        tags: ['Auth'],
        summary: "Change the signed-in user's password",
        body: ZChangePasswordRequest,
        response: { 200: ZOk },
      },
    },
    async (req) => {
      await app.services.auth.changePassword(req.principal!, req.body);
      return { ok: true as const };
    },
  );
};
