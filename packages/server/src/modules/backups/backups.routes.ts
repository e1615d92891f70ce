/**
 * `GET /accounts/{id}/backups` (spec 2 §7; DESIGN §13) and `GET /sample-data-files`
 * (Reinstall Sample Data's Select, spec 2 §2.3). Reads: no `write` needed. A
 * machine's own backups are in `GET /machines/{id}` (ZMachineDetail).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAccountBackupsQuery, ZBackupFilesResponse, ZIdParams, ZSampleDataFilesResponse } from '@fleet/contracts';

export const backupRoutes: FastifyPluginAsyncZod = async (app) => {
  const backups = () => app.services.backups;

  app.get(
    '/accounts/:id/backups',
    {
      schema: {
        operationId: 'listAccountBackups',
        description:
          "The account's backup files (softwareName launcher, siteMaster or auditChangeLog; category; size in bytes; storage class Standard or Glacier), newest first, paged; optionally of one software or machine (spec 2 §2.3 Restore Backup, §7; DESIGN §13). Files of machines hidden from the user are left out; a hidden account is 404.",
        tags: ['Backups'],
        summary: "The account's backup files, newest first",
        params: ZIdParams,
        querystring: ZAccountBackupsQuery,
        response: { 200: ZBackupFilesResponse },
      },
    },
    (req) => backups().listForAccount({ principal: req.principal!, accountId: req.params.id, query: req.query }),
  );

  app.get(
    '/sample-data-files',
    {
      schema: {
        operationId: 'listSampleDataFileDetails',
        description:
          "Every sample data file in the object store with its size in bytes, time, source machine and publisher, by name, at most 1,000: the choices of Reinstall Sample Data's Select (spec 2 §2.3). Publish as Sample Data makes new ones. (`GET /library/sample-data-files` answers names only, spec 3 §7.) sourceMachineId is null for the seeded defaults and for machines hidden from the user.",
        tags: ['Library'],
        summary: 'Sample data files with size, source and publisher, by name',
        response: { 200: ZSampleDataFilesResponse },
      },
    },
    (req) => backups().sampleDataFiles({ principal: req.principal! }),
  );
};
