/**
 * The order test files start in, for both suites (`vitest.config.ts`,
 * `e2e/vitest.config.ts`): the few files that take longest for their size
 * first, then Vitest's own order (on a fresh clone, with no timings cached,
 * larger files first). Started last, a short file that runs for a minute or
 * more keeps one worker busy after the others have finished: the accessibility
 * specs (50–100 s) and the database-loss test (50 s) did (issue 23, the suite's
 * time).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A sequencer that starts the files whose paths end with `/<name>` of `names` first, in that order. */
export function slowFirst(names: readonly string[]): typeof BaseSequencer {
  return class SlowFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const rank = (spec: TestSpecification) => {
        const index = names.findIndex((name) => spec.moduleId.endsWith(`/${name}`));
        return index === -1 ? names.length : index;
      };
      // Array.prototype.sort is stable: the others keep Vitest's order.
      return sorted.sort((a, b) => rank(a) - rank(b));
    }
  };
}
