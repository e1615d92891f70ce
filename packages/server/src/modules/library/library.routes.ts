/**
 * Library Manager calls (spec 3 §2.6, §7 Library): `GET /library/cloud-files`,
 * `POST /library/files/sync`, `DELETE /library/files/{id}` and
 * `DELETE /library/files/batch?ids=`. (`GET /library/files`, `/library/packages`
 * and `/library/sample-data-files` are the catalogues module's.)
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCloudLibraryFilesResponse,
  ZDeleteLibraryFilesQuery,
  ZDeleteLibraryFilesResponse,
  ZIdParams,
  ZSyncLibraryFilesRequest,
  ZSyncLibraryFilesResponse,
} from '@fleet/contracts';

export const libraryRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Library'];

  app.get(
    '/library/cloud-files',
    {
      schema: {
        operationId: 'listCloudLibraryFiles',
        description:
          'Files of the cloud library (a folder of the object store) that no library file has yet, matched by url, with name, type, package, version and size in bytes (spec 3 §2.6 Sync library files, §7 Library).',
        tags,
        summary: 'Cloud library files not yet in the library',
        response: { 200: ZCloudLibraryFilesResponse },
      },
    },
    () => app.services.library.cloudFiles(),
  );

  app.post(
    '/library/files/sync',
    {
      config: { problems: [409, 422] },
      schema: {
        operationId: 'syncLibraryFiles',
        description:
          'Imports the chosen cloud library files (by url) into the library: copies each object into the library folder of the object store and adds the library file, added by the caller and dated now (spec 3 §2.6). 422 for a url not in the cloud library, 409 for one already in the library; nothing is imported then. Audited.',
        tags,
        summary: 'Import cloud library files into the library (audited)',
        body: ZSyncLibraryFilesRequest,
        response: { 200: ZSyncLibraryFilesResponse },
      },
    },
    (req) => app.services.library.sync({ principal: req.principal!, urls: req.body.urls }),
  );

  app.delete(
    '/library/files/batch',
    {
      config: { problems: [404, 409] },
      schema: {
        operationId: 'deleteLibraryFiles',
        description:
          'Deletes library files (ids, a comma list) and their objects in the store (spec 3 §2.6, §5, §7 Library). 404 naming unknown ids, 409 naming the accounts and images that still use a file; nothing is deleted then. Audited.',
        tags,
        summary: 'Delete library files and their stored objects (audited)',
        querystring: ZDeleteLibraryFilesQuery,
        response: { 200: ZDeleteLibraryFilesResponse },
      },
    },
    (req) => app.services.library.remove({ principal: req.principal!, ids: req.query.ids }),
  );

  app.delete(
    '/library/files/:id',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'deleteLibraryFile',
        description:
          'Deletes one library file and its object in the store (spec 3 §2.6, §7 Library). 409 naming the accounts and images that still use it. Audited.',
        tags,
        summary: 'Delete a library file and its stored object (audited)',
        params: ZIdParams,
        response: { 200: ZDeleteLibraryFilesResponse },
      },
    },
    (req) => app.services.library.remove({ principal: req.principal!, ids: [req.params.id] }),
  );
};
