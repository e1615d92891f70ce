/**
 * A client of the Fleet Console API written the way a third party would write one:
 * types generated from the live OpenAPI document by openapi-typescript
 * (`fleet-api.d.ts`, written by `../openapi.test.ts`, not committed) and calls
 * through openapi-fetch. The test type-checks this file against the generated types
 * (so a document that no longer describes these calls fails it) and then runs
 * `walkthrough` against the app listening on a port.
 *
 * The annotated constants below are the typed results: each compiles only when the
 * document gives the field that type.
 */
import createClient from 'openapi-fetch';
import type { paths } from './fleet-api.js';

/** What the walkthrough reads from a problem-details answer. */
export interface ProblemSeen {
  status: number;
  problemStatus: number | undefined;
  title: string | undefined;
  firstError?: { propertyName: string; attemptedValue: unknown };
}

export interface Walkthrough {
  tokenExpiresAt: string;
  accounts: { totalItems: number; names: string[] };
  account: { id: number; name: string; machines: number };
  machine: { id: number; name: string; accountId: number; status: number };
  unknownMachine: ProblemSeen;
  badLimit: ProblemSeen;
  anonymous: ProblemSeen;
}

/**
 * Signs in as `username`, lists accounts, lists the machines of the first account
 * that has some, reads one of them, then makes three calls that fail (unknown
 * machine, invalid `limit`, no token) to read their typed problem details.
 * Throws when a call that should succeed does not.
 */
export async function walkthrough(baseUrl: string, username: string, password: string): Promise<Walkthrough> {
  const anonymousClient = createClient<paths>({ baseUrl });
  const login = await anonymousClient.POST('/api/v1/auth/login', { body: { username, password } });
  if (!login.data) throw new Error(`sign-in failed: ${login.response.status} ${JSON.stringify(login.error)}`);
  const token: string = login.data.accessToken.token;
  const tokenExpiresAt: string = login.data.accessToken.expiresAt;

  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  const list = await client.GET('/api/v1/accounts', { params: { query: { limit: 50, sortBy: 'name', sortDirection: 'Ascending' } } });
  if (!list.data) throw new Error(`listAccounts failed: ${list.response.status}`);
  const totalItems: number = list.data.totalItems;
  const names: string[] = list.data.items.map((a) => a.name);
  // A restricted row (Customer Production without the group) shows no machine counts and cannot be opened.
  const withMachines = list.data.items.find((a) => !a.restricted && a.machineStats.machines > 0);
  if (!withMachines) throw new Error('no account with machines on the first page');

  const machines = await client.GET('/api/v1/accounts/{id}/machines', { params: { path: { id: withMachines.id }, query: { limit: 10 } } });
  if (!machines.data) throw new Error(`listAccountMachines failed: ${machines.response.status}`);
  const first = machines.data.items[0];
  if (!first) throw new Error(`account ${withMachines.id} lists no machine`);

  const read = await client.GET('/api/v1/machines/{id}', { params: { path: { id: first.id } } });
  if (!read.data) throw new Error(`getMachine failed: ${read.response.status}`);
  const machineName: string = read.data.name;
  const machineAccountId: number = read.data.account.id;

  // The errors are typed by the documented 4xx answers: reading a field of one
  // does not compile when the document describes no problem response.
  const unknown = await client.GET('/api/v1/machines/{id}', { params: { path: { id: 2_147_483_647 } } });
  const notFound: ProblemSeen = { status: unknown.response.status, problemStatus: unknown.error?.status, title: unknown.error?.title };
  const badLimit = await client.GET('/api/v1/accounts', { params: { query: { limit: 0 } } });
  const fieldError = badLimit.error?.errors?.[0];
  const invalid: ProblemSeen = {
    status: badLimit.response.status,
    problemStatus: badLimit.error?.status,
    title: badLimit.error?.title,
    firstError: fieldError && { propertyName: fieldError.propertyName, attemptedValue: fieldError.attemptedValue },
  };
  const anonymous = await anonymousClient.GET('/api/v1/user/me');
  const noToken: ProblemSeen = { status: anonymous.response.status, problemStatus: anonymous.error?.status, title: anonymous.error?.title };

  return {
    tokenExpiresAt,
    accounts: { totalItems, names },
    account: { id: withMachines.id, name: withMachines.name, machines: machines.data.totalItems },
    machine: { id: read.data.id, name: machineName, accountId: machineAccountId, status: read.response.status },
    unknownMachine: notFound,
    badLimit: invalid,
    anonymous: noToken,
  };
}
