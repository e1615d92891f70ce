/**
 * Splitting a rollout's targets into waves (DESIGN §15; spec 3 §7 Updater): pure.
 */
import type { TWaveSize } from '@fleet/contracts';

/**
 * The sizes of the waves of `total` targets under `waves`: each wave a number of
 * targets (`count`) or a percentage of all targets (`percent`, rounded up), at
 * least 1 and at most what is left; the targets left after the last size form
 * one more wave; waves that would be empty are dropped. `splitWaves(20, [1, 10 %])`
 * is `[1, 2, 17]`. The sizes add up to `total` (0 targets: no wave).
 */
export function splitWaves(total: number, waves: readonly TWaveSize[]): number[] {
  const sizes: number[] = [];
  let left = total;
  for (const w of waves) {
    if (left <= 0) break;
    const wanted = w.kind === 'count' ? w.value : Math.ceil((total * w.value) / 100 - 1e-9);
    const size = Math.min(Math.max(1, wanted), left);
    sizes.push(size);
    left -= size;
  }
  if (left > 0) sizes.push(left);
  return sizes;
}

/** The wave (from 0) of each of `total` targets in order, for {@link splitWaves}' sizes. */
export function waveOfEach(total: number, waves: readonly TWaveSize[]): number[] {
  return splitWaves(total, waves).flatMap((size, wave) => Array.from({ length: size }, () => wave));
}

/**
 * How many targets of a wave of `size` may deploy at once under `cap` (the
 * plan's `maxConcurrent`): a count as it is, a percentage of the wave rounded
 * up; at least 1. No cap: the whole wave.
 */
export function concurrencyOf(size: number, cap: TWaveSize | undefined): number {
  if (!cap) return size;
  return Math.max(1, cap.kind === 'count' ? cap.value : Math.ceil((size * cap.value) / 100 - 1e-9));
}

/**
 * Whether `failed` failed targets of a wave of `size` exceed the plan's
 * threshold (more than `maxFailedTargets`, or more than `maxFailedPercent` % of
 * the wave). Failures only grow, so the rollout halts as soon as this is true,
 * before the wave's last target finishes (issue 25 point 4).
 */
export function thresholdExceeded(failed: number, size: number, plan: { maxFailedTargets: number; maxFailedPercent: number }): boolean {
  return failed > plan.maxFailedTargets || failed * 100 > plan.maxFailedPercent * size;
}
