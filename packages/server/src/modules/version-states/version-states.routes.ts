/**
 * Version state calls (spec 2 §7 Machines): `GET /machines/{id}/states`,
 * `GET /machines/{id}/states/desired`, `GET /machines/{id}/state-info`, and the
 * States viewer's `GET /version-states` (spec 2 §2.8; not named by the spec). Reads:
 * any signed-in user; hidden machines are 404 (app.ts, the service).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  VIEWER_COUNT_AHEAD,
  ZIdParams, ZVersionState, ZVersionStatesQuery, ZVersionStatesResponse, ZVersionStatesViewerPage, ZVersionStatesViewerQuery } from '@fleet/contracts';

export const versionStateRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Version states'];
  const states = () => app.services.versionStates;

  app.get(
    '/machines/:id/states',
    {
      schema: {
        operationId: 'listMachineVersionStates',
        summary: "The machine's version states, newest first, paged",
        description:
          "Version states of the machine (spec 2 §3 Version state, §2.8 States viewer; DESIGN §12): the stored ones, newest first; `current=true` only the current one, " +
          '`current=false` only historical ones; `desired=true` the desired state (its account\'s machineConfig resolved) as the only item. ' +
          'Each component is a commit (branchName, shortHash, timestamp) or null when not installed.',
        tags,
        params: ZIdParams,
        querystring: ZVersionStatesQuery,
        response: { 200: ZVersionStatesResponse },
      },
    },
    (req) => states().states({ principal: req.principal!, machineId: req.params.id, query: req.query }),
  );

  app.get(
    '/machines/:id/states/desired',
    {
      schema: {
        operationId: 'getMachineDesiredState',
        summary: "The machine's desired version state",
        description:
          "The versions the machine should run: its account's machineConfig resolved per component (Latest, Select, LatestBuild, None; DESIGN §12). " +
          'Computed, so `id` is null; `timestamp` is when they last changed. A machine whose desired state differs from its current one is obsolete.',
        tags,
        params: ZIdParams,
        response: { 200: ZVersionState },
      },
    },
    (req) => states().desired({ principal: req.principal!, machineId: req.params.id }),
  );

  app.get(
    '/machines/:id/state-info',
    {
      schema: {
        operationId: 'getMachineStateInfo',
        summary: "The machine's current version state (Version Info)",
        description:
          'The current version state of the machine, as the Version Info dialog shows it (spec 2 §2.3): what its last successful UpdateSoftware or ' +
          'TestLatestCode installed. A machine with no stored state yet answers its current versions with `id` null.',
        tags,
        params: ZIdParams,
        response: { 200: ZVersionState },
      },
    },
    (req) => states().stateInfo({ principal: req.principal!, machineId: req.params.id }),
  );

  app.get(
    '/version-states',
    {
      schema: {
        operationId: 'listVersionStates',
        summary: 'Version states of every visible machine, or of one, paged (States viewer)',
        description:
          'The States viewer (spec 2 §2.8, §4; issue 24 point 7): `state=Current` the current states, `Historical` the former ones, both newest first (timestamp, then id; `order=asc` oldest first), ' +
          '`from` and `to` bounding the timestamp; `Desired` one computed desired state per machine, by machine id (no time range or sort: 400). ' +
          '`machineId` keeps one machine (an unknown or hidden id answers an empty page); `classId` the machine\'s class; `component` the states in which it is installed, with `branch` those whose version of it is of that branch. ' +
          'Each row carries its machine class name and the names of the newest launcher and site master backups made before the state was replaced. ' +
          'Customer Production machines are left out without group CustomerProductionAccess. The total is counted at most ' +
          `${VIEWER_COUNT_AHEAD} rows past the page (\`totalCapped\`).`,
        tags,
        querystring: ZVersionStatesViewerQuery,
        response: { 200: ZVersionStatesViewerPage },
      },
    },
    (req) => states().viewer({ principal: req.principal!, query: req.query }),
  );
};
