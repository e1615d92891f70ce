/**
 * Accounts list calls (spec 1 §7 Accounts): `GET /accounts`, `GET /accounts/info`,
 * `DELETE /accounts/{id}`, `GET /accounts/{id}/launcher-logins`, `GET /lookup/accounts`
 * (`parentCandidates=true`: possible add-on parents, spec 1 §5).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAccountFilter,
  ZAccountLookupQuery,
  ZAccountLookupResponse,
  ZAccountsInfo,
  ZIdParams,
  ZLauncherLoginsResponse,
  ZListAccountsQuery,
  ZListAccountsResponse,
} from '@fleet/contracts';

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Accounts'];

  app.get(
    '/accounts',
    {
      schema: {
        operationId: 'listAccounts',
        description:
          'The accounts list (spec 1 §2 Accounts list, §7): a full-text `search` on name, URL name, customer and creator (ranked when no `sortBy`), comma-list filters `classIds`, `saasImage`, `machineStatusInclude` and `machineStatusExclude`, sorting and paging. Without group CustomerProductionAccess, Customer Production accounts are restricted rows (`restricted: true`: id, name and class only, spec 1 §2): they match the class filter and a search by their name only, are left out by a SaaS image or machine status filter, and come after the others when sorted by a column they do not show.',
        tags,
        summary: 'Accounts, filtered, searched, sorted and paged',
        querystring: ZListAccountsQuery,
        response: { 200: ZListAccountsResponse },
      },
    },
    (req) => app.services.accounts.list(req.principal!, req.query),
  );

  app.get(
    '/accounts/info',
    {
      schema: {
        operationId: 'getAccountsInfo',
        description:
          'Footer statistics of the accounts matching the same filter as the list (spec 1 §2 Accounts list): the number of accounts, machines per class, and machines and accounts per machine status. The restricted rows of the list (Customer Production without the group) are counted as they are listed.',
        tags,
        summary: 'Footer statistics of the accounts matching the filter',
        querystring: ZAccountFilter,
        response: { 200: ZAccountsInfo },
      },
    },
    (req) => app.services.accounts.info(req.principal!, req.query),
  );

  app.delete(
    '/accounts/:id',
    {
      schema: {
        operationId: 'deleteAccount',
        description:
          'Deletes the account (a soft delete: it leaves every list and lookup, its URL name becomes free) and marks each of its machines for termination with a TerminateMachine task (spec 1 §7). Audited DeleteAccount.',
        tags,
        summary: 'Delete the account and terminate all its machines',
        params: ZIdParams,
        response: { 200: z.object({ terminatedMachines: z.number().int() }) },
      },
    },
    (req) => app.services.accounts.remove(req.principal!, req.params.id),
  );

  app.get(
    '/accounts/:id/launcher-logins',
    {
      config: { requireWrite: true },
      schema: {
        operationId: 'listLauncherLogins',
        description:
          'The launcher logins of the account with their passwords, decrypted (spec 1 §7). The read reveals secrets, so it needs `write` and is audited.',
        tags,
        summary: 'Launcher logins with passwords (write permission; audited)',
        params: ZIdParams,
        response: { 200: ZLauncherLoginsResponse },
      },
    },
    (req) => app.services.accounts.launcherLogins(req.principal!, req.params.id),
  );

  app.get(
    '/lookup/accounts',
    {
      schema: {
        operationId: 'lookupAccounts',
        description:
          'Id, name and class of every visible account, for pickers; `parentCandidates=true` keeps only the accounts an add-on account may have as parent (spec 1 §5).',
        tags,
        summary: 'Id, name and class of every visible account; parentCandidates=true keeps possible add-on parents',
        querystring: ZAccountLookupQuery,
        response: { 200: ZAccountLookupResponse },
      },
    },
    (req) => app.services.accounts.lookup(req.principal!, { parentCandidates: req.query.parentCandidates }),
  );
};
