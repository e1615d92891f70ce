/**
 * Rollouts (DESIGN §15; spec 3 §7 Updater and batch): `GET /rollouts`,
 * `GET /rollouts/{id}`, `GET /rollouts/{id}/targets` and
 * `POST /rollouts/{id}/pause|resume|abort`, `POST /rollouts/{id}/rollback` and
 * `POST /rollouts/{id}/waves/{wave}/approve|reject`. Every route needs `write` (the
 * Updater is write-only: the reads say `requireWrite`).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZBatchResult,
  ZIdParams,
  ZRollbackRequest,
  ZRollout,
  ZRolloutTargetsQuery,
  ZRolloutTargetsResponse,
  ZRolloutWaveParams,
  ZRolloutsQuery,
  ZRolloutsResponse,
  ZWaveDecisionRequest,
} from '@fleet/contracts';

export const rolloutRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Rollouts'];

  app.get(
    '/rollouts',
    {
      config: { requireWrite: true },
      schema: {
        operationId: 'listRollouts',
        description:
          'Rollouts newest first, paged, optionally of one status, each with its plan, the update it rolls out and its counts of targets by state (DESIGN §15, spec 3 §7). Rollouts with a Customer Production target are listed only for group CustomerProductionAccess.',
        tags,
        summary: 'Rollouts newest first, with their counts of targets by state',
        querystring: ZRolloutsQuery,
        response: { 200: ZRolloutsResponse },
      },
    },
    (req) => app.services.rollouts.list({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/rollouts/:id',
    {
      config: { requireWrite: true },
      schema: {
        operationId: 'getRollout',
        description:
          'One rollout with its progress per wave: size, status, counts of targets by state, start and end (DESIGN §15, spec 3 §7). 404 when unknown, or hidden (a Customer Production target without group CustomerProductionAccess).',
        tags,
        summary: 'One rollout with its progress per wave',
        params: ZIdParams,
        response: { 200: ZRollout },
      },
    },
    (req) => app.services.rollouts.get({ principal: req.principal!, id: req.params.id }),
  );

  app.get(
    '/rollouts/:id/targets',
    {
      config: { requireWrite: true },
      schema: {
        operationId: 'listRolloutTargets',
        description:
          "A rollout's targets in the order of the request, paged, optionally of one wave (from 0) or state, each with its state and why (DESIGN §15, spec 3 §7). 404 when the rollout is unknown or hidden.",
        tags,
        summary: "A rollout's targets with their wave, state and detail",
        params: ZIdParams,
        querystring: ZRolloutTargetsQuery,
        response: { 200: ZRolloutTargetsResponse },
      },
    },
    (req) => app.services.rollouts.targets({ principal: req.principal!, id: req.params.id, query: req.query }),
  );

  const transitions = [
    ['pause', 'pauseRollout', 'Pause a Running rollout (audited)', 'Pauses a Running rollout: no new wave starts; deploys already running go on (DESIGN §15). 409 unless Running. Audited PauseRollout.'],
    ['resume', 'resumeRollout', 'Resume a Paused or Halted rollout (audited)', 'Resumes a Paused rollout, or a Halted one at its next wave (DESIGN §15). 409 unless Paused or Halted. Audited ResumeRollout.'],
    ['abort', 'abortRollout', 'Abort a rollout: its Pending targets become NotApplied (audited)', 'Aborts a Running, Paused or Halted rollout: its Pending targets become NotApplied; targets already applied stay as they are (DESIGN §15). 409 for an Aborted or Completed rollout. Audited AbortRollout.'],
  ] as const;
  for (const [to, operationId, summary, description] of transitions) {
    app.post(
      `/rollouts/:id/${to}`,
      {
        config: { problems: [409] },
        schema: { operationId, description, tags, summary, params: ZIdParams, response: { 200: ZRollout } },
      },
      (req) => app.services.rollouts.transition({ principal: req.principal!, id: req.params.id, to }),
    );
  }

  app.post(
    '/rollouts/:id/rollback',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'rollbackRollout',
        description:
          "Rolls back a Halted, Aborted or Completed rollout (issue 25): a new rollout, linked both ways (`rollbackOf`, `rolledBackBy`), puts back on the targets its waves changed the desired versions each had before (machine overrides, or the account's machineConfig and the overrides it cleared), with the same waves and approvals by the same rules. `dryRun: true` answers per target what it would change, refused targets with the rule, and starts nothing. 409 for a rollout Running or Paused, already rolled back, or with nothing to put back. Audited RollbackRollout.",
        tags,
        summary: 'Roll back a rollout: its targets get their previous versions in a new rollout (audited)',
        params: ZIdParams,
        body: ZRollbackRequest,
        response: { 200: ZBatchResult },
      },
    },
    (req) => app.services.rollouts.rollback({ principal: req.principal!, id: req.params.id, dryRun: req.body.dryRun }),
  );

  const decisions = [
    [
      'approve',
      'approveRolloutWave',
      "Approve a wave: proceed every deploy of it waiting for approval (audited)",
      "Approves the current wave of a rollout (numbered from 1): every UpdateSoftware of the wave waiting for approval proceeds, and the wave's timeout runs from now; one decision, audited RolloutWaveApproved with the reason and the operations (issue 25). 403 for the user who started the rollout while ROLLOUT_REQUIRE_SECOND_APPROVER is on (the default); 409 for a rollout not Running or Paused, a wave that is not the current one, or a wave with nothing waiting for approval.",
    ],
    [
      'reject',
      'rejectRolloutWave',
      'Reject a wave: cancel its deploys and halt the rollout (audited)',
      "Rejects the current wave of a rollout (numbered from 1): every operation of the rollout that has not started is cancelled ('Cancelled: rollout {id} halted'), the wave's waiting targets become Failed and the rollout halts; audited RolloutWaveRejected with the reason (issue 25). 403 and 409 as Approve wave.",
    ],
  ] as const;
  for (const [decision, operationId, summary, description] of decisions) {
    app.post(
      `/rollouts/:id/waves/:wave/${decision}`,
      {
        config: { problems: [409] },
        schema: { operationId, description, tags, summary, params: ZRolloutWaveParams, body: ZWaveDecisionRequest, response: { 200: ZRollout } },
      },
      (req) => app.services.rollouts.decideWave({ principal: req.principal!, id: req.params.id, wave: req.params.wave, decision, reason: req.body.reason }),
    );
  }
};
