/**
 * What each notification says and where it links (issue 28 point 3; `messages.ts`),
 * and the retry backoff of the delivery worker (`delivery.ts`).
 */
import { describe, expect, it } from 'vitest';
import type { ClaimedDelivery } from './delivery.repository.js';
import { messageOf } from './messages.js';
import { backoffMs } from './delivery.js';

const base: ClaimedDelivery = {
  id: 9,
  attempts: 1,
  channelId: 1,
  channelName: 'Ops',
  channelKind: 'webhook',
  target: 'https://hooks.example/ops',
  secret: null,
  eventId: 4,
  kind: 'Test',
  occurredAt: new Date('2026-11-29T16:00:00Z'),
  rolloutId: null,
  wave: null,
  operationId: null,
  machineId: null,
  accountId: null,
  classId: null,
  issueId: null,
  reopened: false,
  rolloutReason: null,
  operationType: null,
  machineName: null,
  accountName: null,
  className: null,
  issueDescription: null,
};
const URL = 'https://fleet.example.net';

describe('messageOf', () => {
  it('names what happened and links to its console page', () => {
    expect(messageOf({ ...base, kind: 'RolloutAwaitingApproval', rolloutId: 12, wave: 1 }, URL)).toEqual({
      title: 'Rollout 12: wave 2 is waiting for approval',
      text: 'Approve or reject the wave on the rollout page.',
      url: `${URL}/#/rollouts/12`,
    });
    const machine = { machineId: 7, machineName: 'acme-launcher', accountId: 3, accountName: 'Acme' };
    expect(messageOf({ ...base, kind: 'MachinePanic', ...machine }, URL)).toMatchObject({ title: 'Machine acme-launcher of Acme is in Panic', url: `${URL}/#/account/edit/3` });
    expect(messageOf({ ...base, kind: 'OperationPendingApproval', operationId: 55, operationType: 'UpdateSoftware', ...machine }, URL)).toMatchObject({
      title: 'Operation UpdateSoftware on acme-launcher of Acme is waiting for approval',
      url: `${URL}/#/operations/55`,
    });
    expect(messageOf({ ...base, kind: 'IssueOpened', reopened: true, issueDescription: 'Probe failed', ...machine }, URL)).toEqual({
      title: 'Issue reopened on acme-launcher of Acme',
      text: 'Probe failed',
      url: `${URL}/#/viewer/issues?machine=7`,
    });
    expect(messageOf({ ...base, kind: 'ClassStandby', classId: 2, className: 'Internal Testing' }, URL)).toMatchObject({ title: 'MMA class Internal Testing switched to standby', url: `${URL}/#/mma` });
    expect(messageOf(base, URL)).toMatchObject({ title: 'Test message from Fleet Console', url: `${URL}/#/notifications` });
  });

  it('names a row deleted since by its id', () => {
    expect(messageOf({ ...base, kind: 'MachinePanic', machineId: 7, accountId: 3 }, URL).title).toBe('Machine machine 7 is in Panic');
  });
});

describe('backoffMs', () => {
  it('doubles from the base after each failed attempt, up to the bound', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 5_000, 3_600_000))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(backoffMs(20, 5_000, 3_600_000)).toBe(3_600_000);
  });
});
