/**
 * Test helpers of the MMA's unit tests (not a test file itself): a claimed
 * operation as the server's claim answers it.
 */
import type { TMmaClaimedOperation } from '@fleet/contracts';

/** A claimed SmokeTest (attempt 2, resumed) of machine 7 `acme-prod-1`, with `over` on top. */
export const claimed = (over: Partial<TMmaClaimedOperation> = {}): TMmaClaimedOperation => ({
  operationId: 41,
  attempt: 2,
  typeName: 'SmokeTest',
  params: {},
  remainingMs: 600_000,
  resumed: true,
  machine: {
    id: 7,
    name: 'acme-prod-1',
    accountId: 3,
    hostName: 'ip-10-0-0-7.compute.internal',
    cloudId: 'i-0abc',
    isLauncher: true,
    isSiteMaster: false,
    sampleData: 'Standard',
    sampleDataFile: null,
    desiredVersions: { launcher: 'master|abc1234', siteMaster: 'release/5|def5678' },
  },
  outputOffset: 0,
  deployerLogOffset: 0,
  ...over,
});
