import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { TRollout, TRolloutTargetCounts } from '@fleet/contracts';
import { rolloutKeys } from './keys';
import { applyRolloutProgress } from './rollout-cache';

const counts = (over: Partial<TRolloutTargetCounts> = {}): TRolloutTargetCounts => ({
  Pending: 0,
  Deploying: 0,
  AwaitingApproval: 0,
  Succeeded: 0,
  Failed: 0,
  Skipped: 0,
  NotApplied: 0,
  ...over,
});

const rollout: TRollout = {
  id: 7,
  kind: 'accounts',
  status: 'Running',
  reason: null,
  plan: { waves: [], maxFailedTargets: 1, maxFailedPercent: 10, waveTimeoutMinutes: 30, approvalTimeoutMinutes: 10080, bakeMinutes: 0, minProbeSuccessPercent: 95, onHalt: 'stay' },
  config: {},
  createdBy: 'admin',
  secondApproverRequired: true,
  startedByYou: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  activityId: 1,
  currentWave: 0,
  rollbackOf: null,
  rolledBackBy: null,
  waitingFor: null,
  waves: [],
  counts: counts({ Pending: 3 }),
};

describe('applyRolloutProgress', () => {
  it('puts the status, wave and counts of the event into the cached rollout', () => {
    const client = new QueryClient();
    client.setQueryData(rolloutKeys.detail(7), rollout);
    const shown = applyRolloutProgress(client, { rolloutId: 7, status: 'Halted', currentWave: 1, counts: counts({ Failed: 2, Pending: 1 }) });
    expect(shown).toBe(true);
    expect(client.getQueryData<TRollout>(rolloutKeys.detail(7))).toMatchObject({ status: 'Halted', currentWave: 1, counts: { Failed: 2, Pending: 1 } });
  });

  it('answers false for a rollout nobody shows', () => {
    const client = new QueryClient();
    expect(applyRolloutProgress(client, { rolloutId: 8, status: 'Running', currentWave: 0, counts: counts() })).toBe(false);
  });
});
