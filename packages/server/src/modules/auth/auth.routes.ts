/** `POST /auth/login`, `POST /auth/logout`, `GET /user/me`, `PUT /user/password` (spec 1 §7). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZChangePasswordRequest, ZLoginRequest, ZLoginResponse, ZOk, ZUserMe } from '@fleet/contracts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: {
        operationId: 'login',
        tags: ['Auth'],
        summary: 'Sign in; 401 on wrong credentials, 429 after 5 failures a minute',
        security: [],
        body: ZLoginRequest,
        response: { 200: ZLoginResponse },
      },
    },
    (req) => app.services.auth.login({ ...req.body, address: req.ip }),
  );

  app.post(
    '/auth/logout',
    { config: { selfService: true }, schema: { operationId: 'logout', tags: ['Auth'], summary: 'Revoke the token', response: { 200: ZOk } } },
    async (req) => {
      await app.services.auth.logout(req.principal!);
      return { ok: true as const };
    },
  );

  app.get(
    '/user/me',
    { schema: { operationId: 'getCurrentUser', tags: ['Auth'], summary: 'The signed-in user', response: { 200: ZUserMe } } },
    (req) => app.services.auth.me(req.principal!),
  );

  app.put(
    '/user/password',
    {
      config: { selfService: true },
      schema: {
        operationId: 'changePassword',
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
