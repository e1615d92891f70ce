/**
 * Remote MMAs for the tests (issue 27; `modules/mma-agents`): a registration
 * token made by the admin through the API, and an MMA registered with one
 * (its id and authentication token). The permission matrix's fixtures of the
 * MMA routes (`permission-fixtures.ts`) are made with these.
 */
import { CLASS_EXPERIMENTAL, type TMmaAgentRegisterResponse, type TMmaRegistrationToken } from '@fleet/contracts';
import type { TestApp } from './harness.js';

let registered = 0;

/** A registration token of class `classId` (default Experimental), made by the admin. */
export async function newRegistrationToken(t: TestApp, classId = CLASS_EXPERIMENTAL): Promise<string> {
  const res = await t.call({ method: 'POST', url: `/mma/classes/${classId}/registration-tokens`, as: 'admin' });
  if (res.statusCode !== 200) throw new Error(`registration token: ${res.statusCode} ${res.body}`);
  return (res.json() as TMmaRegistrationToken).token;
}

/** The body of `POST /mma-agent/register` with a fresh registration token of class `classId`. */
export async function newRegistration(t: TestApp, classId = CLASS_EXPERIMENTAL) {
  registered += 1;
  return { token: await newRegistrationToken(t, classId), host: `mma-${registered}.fleet.example`, version: '1.0.0' };
}

/** An MMA of class `classId` (default Experimental), registered: its id, class and authentication token. */
export async function newMmaAgent(t: TestApp, classId = CLASS_EXPERIMENTAL): Promise<TMmaAgentRegisterResponse> {
  const res = await t.call({ method: 'POST', url: '/mma-agent/register', body: await newRegistration(t, classId) });
  if (res.statusCode !== 200) throw new Error(`MMA registration: ${res.statusCode} ${res.body}`);
  return res.json() as TMmaAgentRegisterResponse;
}
