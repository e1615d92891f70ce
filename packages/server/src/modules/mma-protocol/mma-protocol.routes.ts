/**
 * The MMA protocol's operation calls (issue 27 point 2; DESIGN §17;
 * `mma-protocol.service.ts`): claim with a long poll, heartbeat, append to a
 * log at an offset, finish, and a machine's report. Each is called with an MMA authentication token
 * (`config.mmaAgent`); the `/api/v1` hook has set `req.mmaAgent`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MMA_BACKUP_FILE_MAX_BYTES,
  ZIdParams,
  ZMmaBackupFileParams,
  ZMmaBackupFileQuery,
  ZMmaBackupFileUploaded,
  ZMmaImage,
  ZMmaImageRequest,
  ZMmaSampleDataFileQuery,
  ZMmaSampleDataFileUploaded,
  ZMmaAppendRequest,
  ZMmaAppendResponse,
  ZMmaClaimRequest,
  ZMmaClaimResponse,
  ZMmaFinishRequest,
  ZMmaFinishResponse,
  ZMmaHeartbeatRequest,
  ZMmaHeartbeatResponse,
  ZMmaMachineReport,
  ZMmaMachineReportResponse,
} from '@fleet/contracts';
import { MMA_AGENT_PROTOCOL_TAG } from '../mma-agents/mma-agents.routes.js';
import { attachmentHeader } from '../../lib/attachment.js';
import { HttpProblem } from '../../lib/problem.js';

/** Media types of a backup file's upload: its bytes as they are. */
const BACKUP_FILE_TYPES = ['application/octet-stream', 'application/gzip'];
/** Media types of a sample data file's upload. */
const SAMPLE_DATA_FILE_TYPES = ['application/octet-stream', 'application/zip'];

export const mmaProtocolRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = [MMA_AGENT_PROTOCOL_TAG];
  // A server that stops answers its long polls at once (empty): a poll kept open through the stop would claim
  // with the stopping server's view of the leases, for an MMA that cannot renew them meanwhile.
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());

  app.post(
    '/mma-agent/operations/claim',
    {
      config: { mmaAgent: true },
      schema: {
        operationId: 'claimMmaOperations',
        description:
          "Claims up to `maxOperations` operations of the MMA's class that the start rules let start now (standby, managed, Panic, instance running, approvals, not before, one at a time per machine), waiting up to `waitSeconds` (at most 30) for one: a long poll. Each comes with its lease (`operationId`, `attempt`), which every later call about it carries; an operation whose MMA was lost and whose type is idempotent comes again with the next attempt. An UpdateSoftware's `params.versions` is the target to install. Answers an empty list when nothing came in time. `leases` (the operations the MMA runs) are renewed first, as a heartbeat would: an MMA back from an outage is never offered its own running operations again.",
        tags,
        summary: 'Claim operations (long poll)',
        body: ZMmaClaimRequest,
        response: { 200: ZMmaClaimResponse },
      },
    },
    async (req, reply) => {
      // A client gone mid-poll claims nothing more: its connection closed before the answer was sent (the
      // response's 'close'; the request's own 'close' only says its body was read).
      const gone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      return app.services.mmaProtocol.claim(req.mmaAgent!, { ...req.body, signal: AbortSignal.any([gone.signal, closing.signal]) });
    },
  );

  app.post(
    '/mma-agent/heartbeat',
    {
      config: { mmaAgent: true },
      schema: {
        operationId: 'mmaHeartbeat',
        description:
          "Renews the leases of the operations the MMA runs (send every 5 s; a lease not renewed for MMA_LEASE_S, 60 s, is lost: the operation is offered again when its type is idempotent, else it ends FAILURE 'MMA lost'). Answers the leases renewed, the ones lost (stop those: another attempt or an operator ended them) and the ones to cancel (stop the command, then finish FAILURE).",
        tags,
        summary: 'Renew leases; hear of cancels',
        body: ZMmaHeartbeatRequest,
        response: { 200: ZMmaHeartbeatResponse },
      },
    },
    (req) => app.services.mmaProtocol.heartbeat(req.mmaAgent!, req.body.leases),
  );

  app.post(
    '/mma-agent/operations/:id/append',
    {
      config: { mmaAgent: true, problems: [409] },
      schema: {
        operationId: 'appendMmaOperationLog',
        description:
          "Writes whole lines at `offset` (characters) of the operation's output or deployer log, readable in the console at once, and renews the lease. The offset is the stream's length when the MMA wrote it (the claim gives the first), so a retried append is not written twice. 409 when the lease is lost or the offset is past the end; 404 for an operation of another class.",
        tags,
        summary: "Append to an operation's log",
        params: ZIdParams,
        body: ZMmaAppendRequest,
        response: { 200: ZMmaAppendResponse },
      },
    },
    (req) => app.services.mmaProtocol.append(req.mmaAgent!, req.params.id, req.body),
  );

  app.post(
    '/mma-agent/operations/:id/finish',
    {
      config: { mmaAgent: true, problems: [409] },
      schema: {
        operationId: 'finishMmaOperation',
        description:
          "Ends the attempt SUCCESS or FAILURE (with the message as the output's last line; counted toward Panic), applied as the worker's own finishes are: the machine's fail counter, Panic, issues, OperationFinished. An UpdateSoftware SUCCESS records its versions as installed first. 409 when the lease is lost (it ended or another attempt runs it); 404 for an operation of another class.",
        tags,
        summary: 'Finish an operation',
        params: ZIdParams,
        body: ZMmaFinishRequest,
        response: { 200: ZMmaFinishResponse },
      },
    },
    (req) => app.services.mmaProtocol.finish(req.mmaAgent!, req.params.id, req.body),
  );

  // The backup files' bytes as they are (this plugin's routes only), up to their own limit.
  app.addContentTypeParser([...new Set([...BACKUP_FILE_TYPES, ...SAMPLE_DATA_FILE_TYPES])], { parseAs: 'buffer', bodyLimit: MMA_BACKUP_FILE_MAX_BYTES }, (_req, body, done) =>
    done(null, body),
  );

  app.put(
    '/mma-agent/operations/:id/backup-files/:software',
    {
      config: { mmaAgent: true, problems: [409, 422] },
      bodyLimit: MMA_BACKUP_FILE_MAX_BYTES,
      schema: {
        operationId: 'uploadMmaBackupFile',
        description: `Uploads a Backup's file of one software of its machine (launcher; siteMaster and auditChangeLog on a site master): the body is the file (\`application/octet-stream\` or \`application/gzip\`, at most ${MMA_BACKUP_FILE_MAX_BYTES / 1024 / 1024} MiB). The server keeps it in its object store under the name the simulated agent gives (machine, software, the backup time fixed at the claim, the operation id) and lists it among the account's backups. Upload every software's file before finishing SUCCESS: a SUCCESS with one missing ends the operation FAILURE. A second upload of a software answers the file already made (\`created: false\`). 409 when the lease is lost; 422 for a software the machine does not run or an operation that is not a Backup; 404 for an operation of another class.`,
        tags,
        summary: "Upload a Backup's file",
        params: ZMmaBackupFileParams,
        querystring: ZMmaBackupFileQuery,
        response: { 200: ZMmaBackupFileUploaded },
      },
    },
    async (req) => {
      if (!Buffer.isBuffer(req.body)) throw new HttpProblem(415, 'Unsupported Media Type', `Send the backup file as its bytes (${BACKUP_FILE_TYPES.join(' or ')})`);
      return app.services.mmaProtocol.uploadBackupFile(req.mmaAgent!, {
        operationId: req.params.id,
        attempt: req.query.attempt,
        software: req.params.software,
        bytes: req.body,
      });
    },
  );

  app.put(
    '/mma-agent/operations/:id/sample-data-file',
    {
      config: { mmaAgent: true, problems: [409, 422] },
      bodyLimit: MMA_BACKUP_FILE_MAX_BYTES,
      schema: {
        operationId: 'uploadMmaSampleDataFile',
        description: `Uploads a PublishSampleData's file: the body is the zip the site master's data was exported to (\`application/zip\` or \`application/octet-stream\`, at most ${MMA_BACKUP_FILE_MAX_BYTES / 1024 / 1024} MiB). The server publishes it as the sample data file named by the operation's \`fileName\`, as the simulated agent publishes its own. Upload it before finishing SUCCESS: a SUCCESS without it ends the operation FAILURE. A second upload answers the file already made (\`created: false\`). 409 when the lease is lost; 422 when the name is another file's, the machine has no site master or the operation is not a PublishSampleData; 404 for an operation of another class.`,
        tags,
        summary: "Upload a PublishSampleData's file",
        params: ZIdParams,
        querystring: ZMmaSampleDataFileQuery,
        response: { 200: ZMmaSampleDataFileUploaded },
      },
    },
    async (req) => {
      if (!Buffer.isBuffer(req.body)) throw new HttpProblem(415, 'Unsupported Media Type', `Send the sample data file as its bytes (${SAMPLE_DATA_FILE_TYPES.join(' or ')})`);
      return app.services.mmaProtocol.uploadSampleDataFile(req.mmaAgent!, { operationId: req.params.id, attempt: req.query.attempt, bytes: req.body });
    },
  );

  app.post(
    '/mma-agent/operations/:id/image',
    {
      config: { mmaAgent: true, problems: [409, 422] },
      schema: {
        operationId: 'makeMmaOperationImage',
        description:
          "For a CreateJumpStartAmi whose machine the MMA has prepared: the server's cloud images the machine's instance (once per operation, under the client token operation-<id>: a repeated call answers the same image, described again). Call again every few seconds while it is `pending`; finish SUCCESS once it is `available`, and the server registers it as a jump-start SaaS image with the machine's current versions (a SUCCESS before that ends the operation FAILURE). 409 when the lease is lost; 422 when the operation names no image, an unknown IRMN version, the machine has no instance, or it is not a CreateJumpStartAmi; 404 for an operation of another class.",
        tags,
        summary: "Image a CreateJumpStartAmi's machine",
        params: ZIdParams,
        body: ZMmaImageRequest,
        response: { 200: ZMmaImage },
      },
    },
    (req) => app.services.mmaProtocol.image(req.mmaAgent!, { operationId: req.params.id, attempt: req.body.attempt }),
  );

  app.get(
    '/mma-agent/operations/:id/backup-files/:software',
    {
      config: { mmaAgent: true, problems: [409, 422] },
      schema: {
        operationId: 'downloadMmaBackupFile',
        description:
          "Downloads a RestoreBackup's chosen file of one software (`application/gzip`, named in Content-Disposition), once every chosen file passed the checks the simulated agent makes: it exists, belongs to the machine's account, is a backup of that software, the machine runs that software, and it is not in Glacier. Download every chosen file before restoring any. 409 when the lease is lost; 422 with what is wrong with the choice (fail the operation with it); 404 for an operation of another class.",
        tags,
        summary: "Download a RestoreBackup's file",
        params: ZMmaBackupFileParams,
        querystring: ZMmaBackupFileQuery,
      },
    },
    async (req, reply) => {
      const file = await app.services.mmaProtocol.downloadBackupFile(req.mmaAgent!, {
        operationId: req.params.id,
        attempt: req.query.attempt,
        software: req.params.software,
      });
      return reply.header('content-disposition', attachmentHeader(file.name)).type('application/gzip').send(Buffer.from(file.bytes));
    },
  );

  app.post(
    '/mma-agent/machines/:id/report',
    {
      config: { mmaAgent: true, problems: [422] },
      schema: {
        operationId: 'reportMmaMachine',
        description:
          "Reports what the MMA read on a machine of its class: its site server status (shown by the console's Server Status dialog; a false flag on a running managed machine raises a server-status issue at the worker's next check) and the versions installed (`component → {branch}|{hash}`, every component it runs; a difference from the machine's current versions writes a new current version state, and one from its desired versions makes the deploy controller queue an UpdateSoftware). A part not sent keeps its last report. 422 when the catalogue knows no commit for a version (nothing recorded); 404 for a machine of another class.",
        tags,
        summary: 'Report a machine',
        params: ZIdParams,
        body: ZMmaMachineReport,
        response: { 200: ZMmaMachineReportResponse },
      },
    },
    (req) => app.services.mmaProtocol.report(req.mmaAgent!, req.params.id, req.body),
  );
};
