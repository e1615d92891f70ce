/**
 * Operations calls (spec 2 §2.3, §2.6, §7 Machines and Operations; DESIGN §12):
 * the dialogs' `POST /machines/{id}/queue-operations|force-backup|force-populate|
 * publish-sample-data|create-ami|restore-backup|test-latest-code`,
 * `POST /machines/{id}/reset-last-operation`, `PATCH /machines/{id}/operations/{operationId}`
 * (PROCEED or CANCEL), `GET /machines/{id}/operations`, `/operation-types`,
 * `/site-server-status`, `GET /operations`, `/operations/{id}/output`,
 * `/operations/{id}/deployer-log`, and the trail `GET /user-activities/{id}/trail`.
 * Mutations need `write` (app.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  ZActivityTrail,
  ZCreateAmiRequest,
  ZForceBackupRequest,
  ZForcePopulateRequest,
  ZIdParams,
  ZMachineOperationParams,
  ZMachineOperationsQuery,
  ZOperation,
  MAX_OPERATION_DECISIONS,
  ZOperationDecisionsRequest,
  ZOperationDecisionsResponse,
  ZPendingApprovals,
  ZOperationListResponse,
  ZOperationLog,
  ZOperationsPage,
  ZOperationsQuery,
  ZOperationTypesResponse,
  ZPublishSampleDataRequest,
  ZQueuedOperationsResponse,
  ZQueueOperationsRequest,
  ZRestoreBackupRequest,
  ZSiteServerStatus,
  ZTestLatestCodeRequest,
  ZUpdateOperationRequest,
} from '@fleet/contracts';
import type { OperationService } from './operations.service.js';

const AUDITED =
  " 422 when the machine's class has no operation type of that name. Audited; the operation carries the activity id. Answers the queued operation (pending when it needs approval).";

/** The dialogs that queue one operation: path, contract, service method and their words. */
const DIALOG_ROUTES: {
  path: string;
  operationId: string;
  body: z.ZodType;
  method: 'forceBackup' | 'forcePopulate' | 'publishSampleData' | 'createAmi' | 'restoreBackup' | 'testLatestCode';
  summary: string;
  description: string;
}[] = [
  {
    path: 'force-backup',
    operationId: 'forceMachineBackup',
    body: ZForceBackupRequest,
    method: 'forceBackup',
    summary: 'Queue a manual Backup after 0, 3, 10 or 30 minutes',
    description: 'Manual Backup (spec 2 §2.3; DESIGN §13): queues a Backup of category manual that starts no sooner than `timeToBackup` minutes from now.',
  },
  {
    path: 'force-populate',
    operationId: 'forceMachinePopulate',
    body: ZForcePopulateRequest,
    method: 'forcePopulate',
    summary: 'Queue Populate of the launcher and/or site master',
    description: 'Force Populate (spec 2 §2.3, §5): queues a Populate with populateLauncher, populateSiteMaster (at least one) and the alt string (letters and digits only).',
  },
  {
    path: 'publish-sample-data',
    operationId: 'publishMachineSampleData',
    body: ZPublishSampleDataRequest,
    method: 'publishSampleData',
    summary: 'Queue PublishSampleData as a file name',
    description: 'Publish as Sample Data (spec 2 §2.3): queues a PublishSampleData operation that publishes the site master data as the named sample data file.',
  },
  {
    path: 'create-ami',
    operationId: 'createMachineAmi',
    body: ZCreateAmiRequest,
    method: 'createAmi',
    summary: 'Queue CreateJumpStartAmi (422 for an unknown IRMN version)',
    description: 'Create Jump-start AMI (spec 2 §2.3): queues a CreateJumpStartAmi operation with name, description and IRMN version; 422 when the IRMN version does not exist.',
  },
  {
    path: 'restore-backup',
    operationId: 'restoreMachineBackup',
    body: ZRestoreBackupRequest,
    method: 'restoreBackup',
    summary: 'Queue RestoreBackup of the chosen backup files',
    description:
      'Restore Backup (spec 2 §2.3; DESIGN §13): queues a RestoreBackup of the chosen launcher, site master and audit changelog backup files (at least one; names as `GET /accounts/{id}/backups` lists them). Waits for approval on a production class.',
  },
  {
    path: 'test-latest-code',
    operationId: 'testMachineLatestCode',
    body: ZTestLatestCodeRequest,
    method: 'testLatestCode',
    summary: 'Queue TestLatestCode of a branch (422 for an unknown branch or a missing repository)',
    description:
      "Test Latest Code (spec 2 §2.3, §5): queues a TestLatestCode operation that deploys the branch's newest commits and runs the smoke test (default branch master); 422 with the reason when the branch does not exist or its repository is missing.",
  },
];

export const operationRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Operations'];
  const ops = (): OperationService => app.services.operations;

  app.post(
    '/machines/:id/queue-operations',
    {
      config: { problems: [422] },
      schema: {
        operationId: 'queueMachineOperations',
        description:
          "Queue Operations (spec 2 §2.3, §5): queues one operation per type named (duplicates once); 422 naming `operations` when a type cannot be queued by hand for the machine's class. Audited; each operation carries the activity id. Answers the queued operations (pending when they need approval).",
        tags,
        summary: 'Queue operations of types that can be manual for the machine class',
        params: ZIdParams,
        body: ZQueueOperationsRequest,
        response: { 200: ZQueuedOperationsResponse },
      },
    },
    (req) => ops().queueOperations({ principal: req.principal!, machineId: req.params.id, operations: req.body.operations }),
  );

  for (const route of DIALOG_ROUTES) {
    app.post(
      `/machines/:id/${route.path}`,
      {
        config: { problems: [422] },
        schema: {
          operationId: route.operationId,
          description: route.description + AUDITED,
          tags,
          summary: route.summary,
          params: ZIdParams,
          body: route.body,
          response: { 200: ZQueuedOperationsResponse },
        },
      },
      // The body was validated against `route.body`, the contract of `route.method`.
      (req) => ops()[route.method]({ principal: req.principal!, machineId: req.params.id, body: req.body as never }),
    );
  }

  app.post(
    '/machines/:id/reset-last-operation',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'resetMachineLastOperation',
        description:
          "Ends the machine's latest queued, pending or running operation as FAILURE with the output line `Reset by {user}` (spec 2 §2.3, §4; DESIGN §12); failCounter unchanged; OperationFinished is emitted. 409 with the reason when it has none. Audited. Answers the reset operation.",
        tags,
        summary: 'End the latest unfinished operation as FAILURE (409 when none)',
        params: ZIdParams,
        response: { 200: ZQueuedOperationsResponse },
      },
    },
    (req) => ops().resetLastOperation({ principal: req.principal!, machineId: req.params.id }),
  );

  app.patch(
    '/machines/:id/operations/:operationId',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'updateMachineOperation',
        description:
          'Approves (PROCEED) or cancels (CANCEL) an operation of the machine (spec 2 §2.2, §4; DESIGN §12). PROCEED only while it waits for approval; CANCEL until it finishes, once (it is then being cancelled until the agent ends it FAILURE naming the canceller; a running one is stopped at the next heartbeat of its agent, within 5 s, and the failure is not counted toward Panic). 404 for an operation of another machine, 409 when its state refuses. Audited; OperationQueued is emitted.',
        tags,
        summary: 'Approve (PROCEED) or cancel (CANCEL) an operation',
        params: ZMachineOperationParams,
        body: ZUpdateOperationRequest,
        response: { 200: ZOperation },
      },
    },
    (req) =>
      ops().decide({ principal: req.principal!, machineId: req.params.id, operationId: req.params.operationId, decision: req.body.params }),
  );

  app.get(
    '/machines/:id/operations',
    {
      schema: {
        operationId: 'listMachineOperations',
        description: 'Operations of the machine, newest first, paged (spec 2 §2.3 Operation Logs, load more).',
        tags,
        summary: 'The machine operations, newest first',
        params: ZIdParams,
        querystring: ZMachineOperationsQuery,
        response: { 200: ZOperationListResponse },
      },
    },
    (req) => ops().machineOperations({ principal: req.principal!, machineId: req.params.id, query: req.query }),
  );

  app.get(
    '/machines/:id/operation-types',
    {
      schema: {
        operationId: 'listMachineOperationTypes',
        description: "The operation types Queue Operations offers for the machine: its class's types that can be manual, by name (spec 2 §2.3, §5).",
        tags,
        summary: 'Operation types that can be manual for the machine class',
        params: ZIdParams,
        response: { 200: ZOperationTypesResponse },
      },
    },
    (req) => ops().operationTypes({ principal: req.principal!, machineId: req.params.id }),
  );

  app.get(
    '/machines/:id/site-server-status',
    {
      schema: {
        operationId: 'getMachineSiteServerStatus',
        description:
          "The site server status (spec 2 §2.3 Server Status, §3; DESIGN §14), simulated from the machine's state: Stopped with every flag false without a running instance; Degraded with one check false after a failed operation (operational false when the machine needs admin); otherwise Running with every flag true.",
        tags,
        summary: 'Site server status (simulated from the machine state)',
        params: ZIdParams,
        response: { 200: ZSiteServerStatus },
      },
    },
    (req) => ops().siteServerStatus({ principal: req.principal!, machineId: req.params.id }),
  );

  app.get(
    '/operations',
    {
      schema: {
        operationId: 'listOperations',
        description:
          'Operations of visible machines, paged, filtered and sorted on the server (spec 2 §2.6 Operations viewer; issue 24 point 7): machineId, accountId, classId, status (comma list, QUEUED and PENDING included), type, pending, from and to (the queue time, inclusive); ' +
          'sort (queued, started, finished) and order (asc, desc), newest queued first by default. `totalItems` is exact unless `totalCapped` is true: then at least that many rows match (counting stops at the end of the block of 1000 rows the page starts in, plus a page, so the total stays while paging through a block).',
        tags,
        summary: 'Operations of visible machines, newest first, filtered and paged',
        querystring: ZOperationsQuery,
        response: { 200: ZOperationsPage },
      },
    },
    (req) => ops().list({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/operations/pending-count',
    {
      schema: {
        operationId: 'countPendingApprovals',
        description:
          'How many operations wait for approval (pending, not started, not decided) among those the user can see: the top bar\'s Pending approvals (issue 24). ' +
          'Customer Production ones are counted only for group CustomerProductionAccess.',
        tags,
        summary: 'Count of operations waiting for approval',
        response: { 200: ZPendingApprovals },
      },
    },
    (req) => ops().pendingCount({ principal: req.principal! }),
  );

  app.post(
    '/operations/decisions',
    {
      schema: {
        operationId: 'decideOperations',
        description:
          `One decision (PROCEED or CANCEL) for up to ${MAX_OPERATION_DECISIONS} operations (the approvals inbox, issue 24): each is decided and audited as ` +
          '`PATCH /machines/{id}/operations/{operationId}` would. The ones refused (unknown or hidden, not pending for PROCEED, finished or already cancelled for CANCEL) are answered in `refused` with the reason; the others are decided. Needs `write`.',
        tags,
        summary: 'Proceed or cancel several operations',
        body: ZOperationDecisionsRequest,
        response: { 200: ZOperationDecisionsResponse },
      },
    },
    (req) => ops().decideMany({ principal: req.principal!, ...req.body }),
  );

  app.get(
    '/operations/:id',
    {
      schema: {
        operationId: 'getOperation',
        description:
          'One operation as the lists answer it, with `waiting`: why a queued operation has not started, by the agent\'s start rules (issue 24). ' +
          '404 for an unknown id, and for an operation of a Customer Production machine or account without group CustomerProductionAccess.',
        tags,
        summary: 'One operation',
        params: ZIdParams,
        response: { 200: ZOperation },
      },
    },
    (req) => ops().get({ principal: req.principal!, operationId: req.params.id }),
  );

  for (const [path, log, operationId, words] of [
    ['output', 'output', 'getOperationOutput', 'output'],
    ['deployer-log', 'deployerLog', 'getOperationDeployerLog', 'deployer log'],
  ] as const) {
    app.get(
      `/operations/:id/${path}`,
      {
        schema: {
          operationId,
          description: `The operation's ${words} so far, timestamped lines ('' when empty; the console shows None) (spec 2 §2.6, §7 Operations).`,
          tags,
          summary: `The operation ${words} so far`,
          params: ZIdParams,
          response: { 200: ZOperationLog },
        },
      },
      (req) => ops().log({ principal: req.principal!, operationId: req.params.id, log }),
    );
  }

  app.get(
    '/user-activities/:id/trail',
    {
      schema: {
        operationId: 'getUserActivityTrail',
        description:
          'The tasks and operations an audit activity caused, each with its outcome, oldest first (DESIGN §12 one trail). 404 for an unknown activity or one of a hidden Customer Production account; tasks and operations of hidden machines are left out.',
        tags: ['Audit'],
        summary: 'Tasks and operations caused by an audit activity',
        params: ZIdParams,
        response: { 200: ZActivityTrail },
      },
    },
    (req) => ops().trail({ principal: req.principal!, activityId: req.params.id }),
  );
};
