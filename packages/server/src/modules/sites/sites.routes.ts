/**
 * Sites and services of an account (spec 1 §7 Accounts): `GET /accounts/{id}/sites`,
 * `PUT /accounts/{id}/sites/{siteId}` (write; audited UpdateSite) and
 * `GET /accounts/{id}/software-status`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAccountSiteParams, ZIdParams, ZSite, ZSitesResponse, ZSoftwareStatusResponse, ZUpdateSiteRequest } from '@fleet/contracts';

export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Sites'];

  app.get(
    '/accounts/:id/sites',
    {
      schema: {
        operationId: 'listSites',
        description: 'Sites of the account with URL name, domain name and port (spec 1 §7).',
        tags,
        summary: 'Sites of an account',
        params: ZIdParams,
        response: { 200: ZSitesResponse },
      },
    },
    (req) => app.services.sites.list({ principal: req.principal!, accountId: req.params.id }),
  );

  app.put(
    '/accounts/:id/sites/:siteId',
    {
      config: { problems: [409, 422] },
      schema: {
        operationId: 'updateSite',
        description:
          'Edits a site: name, URL name, domain name (under the provider domain) and port (spec 1 §2 Edit account, §7). 409 when the URL name is used in the account or the domain name anywhere, 422 for add-on accounts. Audited UpdateSite.',
        tags,
        summary: 'Edit a site: name, URL name, domain name (under the provider domain), port',
        params: ZAccountSiteParams,
        body: ZUpdateSiteRequest,
        response: { 200: ZSite },
      },
    },
    (req) => app.services.sites.update({ principal: req.principal!, accountId: req.params.id, siteId: req.params.siteId, body: req.body }),
  );

  app.get(
    '/accounts/:id/software-status',
    {
      schema: {
        operationId: 'getSoftwareStatus',
        description: 'Services of the account derived from its machines, with name and status (spec 1 §7).',
        tags,
        summary: 'Services of an account derived from its machines: name and status',
        params: ZIdParams,
        response: { 200: ZSoftwareStatusResponse },
      },
    },
    (req) => app.services.sites.softwareStatus({ principal: req.principal!, accountId: req.params.id }),
  );
};
