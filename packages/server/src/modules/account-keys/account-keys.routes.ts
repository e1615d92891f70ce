/**
 * `POST /accounts/{id}/generate-keys` and the key downloads `GET
 * /accounts/{id}/files/keys`, `/files/caa-key`, `/files/license-keys` (spec 1
 * §7). The downloads reveal private keys, so they need permission write like
 * the other secret reads; each is audited by the service.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZGenerateKeysRequest, ZGenerateKeysResponse, ZIdParams, type TAccountKeyFile } from '@fleet/contracts';
import { attachmentHeader } from '../../lib/attachment.js';

const tags = ['Account settings'];

const DOWNLOADS: { file: TAccountKeyFile; operationId: string; summary: string; description: string }[] = [
  {
    file: 'keys',
    operationId: 'downloadAccountKeys',
    description: "Downloads the account's encryption key pair as '{urlFriendlyName} keys.zip' (application/zip)",
    summary: "'{urlFriendlyName} keys.zip': the account's encryption key pair (private.pem, public.pem, keys.json). Write permission; audited; 422 for add-ons",
  },
  {
    file: 'caa-key',
    operationId: 'downloadCaaKey',
    description: "Downloads the account's CAA key as '{urlFriendlyName} caa-account.txt' (text/plain)",
    summary: "'{urlFriendlyName} caa-account.txt': the account's CAA key (Ed25519, PEM). Write permission; audited; 422 for add-ons",
  },
  {
    file: 'license-keys',
    operationId: 'downloadLicenseKeys',
    description: "Downloads the license keys as '{urlFriendlyName} license keys.zip' (application/zip)",
    summary: "'{urlFriendlyName} license keys.zip': id_rsa, id_rsa.pub, config.json. Write permission; audited; 422 for add-ons",
  },
];

/** Shared by the downloads: the pair is made (and audited) at the first download. */
const DOWNLOAD_RULES =
  ' (spec 1 §7 blob downloads). A missing pair is made at the first download. The file reveals private keys, so the read needs `write`' +
  " and is audited; add-on accounts use their parent's keys: 422.";

export const accountKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/accounts/:id/generate-keys',
    {
      config: { problems: [422] },
      schema: {
        operationId: 'generateAccountKeys',
        description:
          "Replaces the account's key pairs, all kinds unless `kinds` names some, and answers their fingerprints (spec 1 §7). Add-on accounts use their parent's keys: 422. Audited GenerateAccountKeys.",
        tags,
        summary: "Replace the account's key pairs (all kinds unless `kinds` says which); audited; 422 for add-ons",
        params: ZIdParams,
        body: ZGenerateKeysRequest.nullish(),
        response: { 200: ZGenerateKeysResponse },
      },
    },
    (req) => app.services.accountKeys.generate({ principal: req.principal!, accountId: req.params.id, kinds: req.body?.kinds }),
  );

  for (const { file, operationId, summary, description } of DOWNLOADS) {
    app.get(
      `/accounts/:id/files/${file}`,
      {
        config: { requireWrite: true, problems: [422] },
        schema: { operationId, description: description + DOWNLOAD_RULES, tags, summary, params: ZIdParams },
      },
      async (req, reply) => {
        const { fileName, contentType, body } = await app.services.accountKeys.download({ principal: req.principal!, accountId: req.params.id, file });
        return reply
          .header('content-disposition', attachmentHeader(fileName))
          .header('cache-control', 'no-store')
          .type(contentType)
          .send(body);
      },
    );
  }
};
