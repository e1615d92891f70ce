/**
 * Catalogue calls of the account forms (spec 1 §7 Lookups; spec 3 §7 Software,
 * Cloud, Library): `GET /customers`, `/lookup/features`, `/lookup/reporting-categories`,
 * `/cloud/regions`, `/cloud/instance-types`, `/cloud/redis-instance-types`,
 * `/software/branches`, `/software/{software}/commits`,
 * `/software/{software}/builds`, `PUT /software/{software}/commits/{hash}/breaking`,
 * `GET /library/files`, `/library/packages`, `/library/sample-data-files`.
 * (`GET /irmn-versions` and `/cloud/images` are the images module's, `/mma/classes` the fleet module's.)
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZBranchesResponse,
  ZBuildsResponse,
  ZCommit,
  ZCommitParams,
  ZCustomersResponse,
  ZInstanceTypesResponse,
  ZListBuildsQuery,
  ZListCommitsQuery,
  ZListCommitsResponse,
  ZListLibraryFilesQuery,
  ZListLibraryFilesResponse,
  ZLookupResponse,
  ZRegionsResponse,
  ZSetCommitBreakingRequest,
  ZSoftwareParams,
  ZStringListResponse,
} from '@fleet/contracts';

export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/customers',
    {
      schema: {
        operationId: 'listCustomers',
        description: 'Known customer names, for the autocomplete of the account forms (spec 1 §7).',
        tags: ['Lookups'],
        summary: 'Known customer names, for the autocomplete',
        response: { 200: ZCustomersResponse },
      },
    },
    () => app.services.catalogues.customers(),
  );
  app.get(
    '/lookup/features',
    {
      schema: {
        operationId: 'listFeatures',
        description: 'License features, for the License Settings card (spec 1 §7 Lookups).',
        tags: ['Lookups'],
        summary: 'License features',
        response: { 200: ZLookupResponse },
      },
    },
    () => app.services.catalogues.features(),
  );
  app.get(
    '/lookup/reporting-categories',
    {
      schema: {
        operationId: 'listReportingCategories',
        description: 'License reporting categories, for the License Settings card (spec 1 §7 Lookups).',
        tags: ['Lookups'],
        summary: 'License reporting categories',
        response: { 200: ZLookupResponse },
      },
    },
    () => app.services.catalogues.reportingCategories(),
  );
  app.get(
    '/cloud/regions',
    {
      schema: {
        operationId: 'listRegions',
        description: 'Cloud regions (spec 3 §7 Cloud).',
        tags: ['Cloud'],
        summary: 'Cloud regions',
        response: { 200: ZRegionsResponse },
      },
    },
    () => app.services.catalogues.regions(),
  );
  app.get(
    '/cloud/instance-types',
    {
      schema: {
        operationId: 'listInstanceTypes',
        description: 'Machine instance types (spec 3 §7 Cloud).',
        tags: ['Cloud'],
        summary: 'Machine instance types',
        response: { 200: ZInstanceTypesResponse },
      },
    },
    () => app.services.catalogues.instanceTypes({ redis: false }),
  );
  app.get(
    '/cloud/redis-instance-types',
    {
      schema: {
        operationId: 'listRedisInstanceTypes',
        description: 'Redis (cache) instance types (spec 3 §7 Cloud).',
        tags: ['Cloud'],
        summary: 'Redis (cache) instance types',
        response: { 200: ZInstanceTypesResponse },
      },
    },
    () => app.services.catalogues.instanceTypes({ redis: true }),
  );
  app.get(
    '/software/branches',
    {
      schema: {
        operationId: 'listBranches',
        description: 'Branches of the software components, for the version picker (spec 3 §2.1, §7 Software).',
        tags: ['Software'],
        summary: 'Software branches',
        response: { 200: ZBranchesResponse },
      },
    },
    () => app.services.catalogues.branches(),
  );
  app.get(
    '/library/packages',
    {
      schema: {
        operationId: 'listLibraryPackages',
        description: 'Names of the library packages (spec 3 §2.6, §7 Library).',
        tags: ['Library'],
        summary: 'Library package names',
        response: { 200: ZStringListResponse },
      },
    },
    () => app.services.catalogues.libraryPackages(),
  );
  app.get(
    '/library/sample-data-files',
    {
      schema: {
        operationId: 'listSampleDataFiles',
        description: 'Names of the sample data files a machine can publish (spec 3 §2.6, §7 Library).',
        tags: ['Library'],
        summary: 'Sample data file names',
        response: { 200: ZStringListResponse },
      },
    },
    () => app.services.catalogues.sampleDataFiles(),
  );

  app.get(
    '/software/:software/commits',
    {
      schema: {
        operationId: 'listCommits',
        description:
          'Commits of one component, newest first, filtered by branch, tags only, builds only and a search, paged (10 by default) (spec 3 §2.1, §7 Software).',
        tags: ['Software'],
        summary: 'Commits of a component, newest first, filtered and paged (10 by default)',
        params: ZSoftwareParams,
        querystring: ZListCommitsQuery,
        response: { 200: ZListCommitsResponse },
      },
    },
    (req) => app.services.catalogues.commits({ software: req.params.software, query: req.query }),
  );

  app.get(
    '/software/:software/builds',
    {
      schema: {
        operationId: 'listBuilds',
        description: 'Daily or Release builds of one component, newest first (spec 3 §2.1, §7 Software).',
        tags: ['Software'],
        summary: 'Daily or Release builds of a component, newest first',
        params: ZSoftwareParams,
        querystring: ZListBuildsQuery,
        response: { 200: ZBuildsResponse },
      },
    },
    (req) => app.services.catalogues.builds({ software: req.params.software, type: req.query.type }),
  );

  app.put(
    '/software/:software/commits/:hash/breaking',
    {
      schema: {
        operationId: 'setCommitBreaking',
        description:
          'Marks or unmarks a commit as breaking, with a message (spec 3 §2.1, §7 Software). 404 for an unknown commit of the component. Audited.',
        tags: ['Software'],
        summary: 'Mark or unmark a commit as breaking (audited)',
        params: ZCommitParams,
        body: ZSetCommitBreakingRequest,
        response: { 200: ZCommit },
      },
    },
    (req) =>
      app.services.catalogues.setCommitBreaking({
        principal: req.principal!,
        software: req.params.software,
        hash: req.params.hash,
        isBreaking: req.body.isBreaking,
        breakingMsg: req.body.breakingMsg,
      }),
  );

  app.get(
    '/library/files',
    {
      schema: {
        operationId: 'listLibraryFiles',
        description:
          'Library files, searched, filtered (ids, type, package, version, latest or LCT only, hide old), sorted and paged (spec 3 §2.6, §7 Library).',
        tags: ['Library'],
        summary: 'Library files, searched, filtered, sorted and paged',
        querystring: ZListLibraryFilesQuery,
        response: { 200: ZListLibraryFilesResponse },
      },
    },
    (req) => app.services.catalogues.libraryFiles({ query: req.query }),
  );
};
