/** `POST /accounts/{id}/send-creation-mail` (spec 1 §7; write permission). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZIdParams, ZSendCreationMailResponse } from '@fleet/contracts';

export const accountMailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/accounts/:id/send-creation-mail',
    {
      config: { problems: [422, 502] },
      schema: {
        operationId: 'sendCreationMail',
        description:
          'Emails the account contact its launcher and site URLs (through SMTP_URL, else an .eml file in DATA_DIR/outbox) (spec 1 §7). 422 when the account has no contact email, 502 when the mail server refuses. Audited.',
        tags: ['Account settings'],
        summary: 'Email the account contact its launcher and site URLs (SMTP_URL, else DATA_DIR/outbox); audited',
        params: ZIdParams,
        response: { 200: ZSendCreationMailResponse },
      },
    },
    (req) => app.services.accountMail.sendCreationMail({ principal: req.principal!, accountId: req.params.id }),
  );
};
