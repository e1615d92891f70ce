/** `GET /accounts/{id}/files/license` (a download) and `GET /license/public-key` (spec 1 §7). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZIdParams, ZLicensePublicKey } from '@fleet/contracts';
import { attachmentHeader } from '../../lib/attachment.js';

export const licenseFileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/accounts/:id/files/license',
    {
      schema: {
        operationId: 'downloadLicense',
        description:
          "Downloads the account's signed license file '{urlFriendlyName} license.dat' (application/octet-stream; JSON with payload, Ed25519 signature and keyId) (spec 1 §7 blob downloads).",
        tags: ['Account settings'],
        summary: "The account's signed license file, '{urlFriendlyName} license.dat' (JSON: payload, Ed25519 signature, keyId)",
        params: ZIdParams,
      },
    },
    async (req, reply) => {
      const { fileName, file } = await app.services.licenseFiles.licenseFile({ principal: req.principal!, accountId: req.params.id });
      return reply
        .header('content-disposition', attachmentHeader(fileName))
        .type('application/octet-stream')
        .send(Buffer.from(`${JSON.stringify(file, null, 2)}\n`, 'utf8'));
    },
  );

  app.get(
    '/license/public-key',
    {
      schema: {
        operationId: 'getLicensePublicKey',
        description: 'The Ed25519 public key (PEM) and its key id that verify license files, for on-premise installations.',
        tags: ['Account settings'],
        summary: 'The public key that verifies license files (PEM)',
        response: { 200: ZLicensePublicKey },
      },
    },
    () => app.services.licenseFiles.publicKey(),
  );
};
