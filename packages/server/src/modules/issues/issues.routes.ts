/**
 * Issue calls (spec 2 §2.5, §7 Issues and Machines, §8 Update issue; DESIGN
 * §14): `GET /issues`, `GET /machines/{id}/issues`, `GET /issues/tags`,
 * `GET /issues/{id}/logs`, `PATCH /issues/{id}`. The PATCH needs `write`
 * (app.ts) and is audited.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ISSUES_COUNT_AHEAD,
  ZIdParams,
  ZIssue,
  ZIssueLogsPage,
  ZIssueLogsQuery,
  ZIssueTagSuggestions,
  ZIssueTagsQuery,
  ZIssuesPage,
  ZIssuesQuery,
  ZMachineIssuesQuery,
  ZUpdateIssueRequest,
} from '@fleet/contracts';
import type { IssueService } from './issues.service.js';

const COUNTED = `\`totalItems\` is exact unless \`totalCapped\` is true: then at least that many match (counting stops ${ISSUES_COUNT_AHEAD} issues past the page).`;

export const issueRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Issues'];
  const svc = (): IssueService => app.services.issues;

  app.get(
    '/issues',
    {
      schema: {
        operationId: 'listIssues',
        description:
          'Issues of visible machines, newest last occurrence first, paged, filtered and sorted on the server (spec 2 §2.5, §7 Issues; issue 24 point 7): `machineId`, `tags` (comma list; an issue matches when it has every tag), `status` (`unresolved`, the default: open issues only, as Sentry lists them; `resolved`; `all`), `classId` (the machine\'s class), `from` and `to` (the last occurrence, inclusive); `sort` `last` (the default), `first` (first occurrence) or `count`, `order` `desc` (the default) or `asc`. Issues of Customer Production machines are left out without group CustomerProductionAccess. ' +
          COUNTED,
        tags,
        summary: 'Issues of visible machines, filtered, sorted and paged',
        querystring: ZIssuesQuery,
        response: { 200: ZIssuesPage },
      },
    },
    (req) => svc().list({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/machines/:id/issues',
    {
      schema: {
        operationId: 'listMachineIssues',
        description: `The machine's issues, newest last occurrence first, filtered by \`tags\` (every tag), \`status\` (\`unresolved\` by default, \`resolved\`, \`all\`), \`classId\`, \`from\` and \`to\` and sorted by \`sort\` and \`order\` as \`GET /issues\` takes them, and paged (spec 2 §7 Machines). 404 for an unknown, deleted or hidden machine. ${COUNTED}`,
        tags,
        summary: 'Issues of one machine, filtered by tags, paged',
        params: ZIdParams,
        querystring: ZMachineIssuesQuery,
        response: { 200: ZIssuesPage },
      },
    },
    (req) => svc().machineIssues({ principal: req.principal!, machineId: req.params.id, query: req.query }),
  );

  app.get(
    '/issues/tags',
    {
      schema: {
        operationId: 'listIssueTags',
        description:
          "The tags in use on the visible issues matching the Issue viewer's filter (`machineId`, `tags`, `status`, `classId`, `from`, `to` as `GET /issues` takes them), for the tag filter's suggestions: each tag with the number of matching issues carrying it, most used first, without the tags already in the filter; `search` keeps the tags containing it (case-insensitive); at most `limit` (default 50, at most 100). Counted over the newest 10,000 matching issues.",
        tags,
        summary: 'Tags in use on the matching issues, most used first',
        querystring: ZIssueTagsQuery,
        response: { 200: ZIssueTagSuggestions },
      },
    },
    (req) => svc().tags({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/issues/:id/logs',
    {
      schema: {
        operationId: 'listIssueLogs',
        description:
          "The issue's logs, newest first (spec 2 §2.5 logs drawer, §3 Issue log): timestamp, content, tags, size (characters of the whole content) and complete (false when the content was cut). The newest 100 are kept.",
        tags,
        summary: 'Logs of an issue, newest first, paged',
        params: ZIdParams,
        querystring: ZIssueLogsQuery,
        response: { 200: ZIssueLogsPage },
      },
    },
    (req) => svc().logs({ principal: req.principal!, issueId: req.params.id, query: req.query }),
  );

  app.patch(
    '/issues/:id',
    {
      schema: {
        operationId: 'updateIssue',
        description:
          'Resolves or reopens an issue (spec 2 §4, §8 Update issue). Audited (UpdateIssue). A resolved issue that occurs again is reopened by the engine (DESIGN §14). Answers the issue.',
        tags,
        summary: 'Resolve or reopen an issue',
        params: ZIdParams,
        body: ZUpdateIssueRequest,
        response: { 200: ZIssue },
      },
    },
    (req) => svc().update({ principal: req.principal!, issueId: req.params.id, isResolved: req.body.isResolved }),
  );
};
