/** Query keys of the MMA screen (spec 3 §2.7). */
export const mmaKeys = {
  all: ['mma'] as const,
  classes: () => [...mmaKeys.all, 'classes'] as const,
};
