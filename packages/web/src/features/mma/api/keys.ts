/** Query keys of the MMA screen (spec 3 §2.7; issue 27 point 1: the registered MMAs). */
export const mmaKeys = {
  all: ['mma'] as const,
  classes: () => [...mmaKeys.all, 'classes'] as const,
  agents: () => [...mmaKeys.all, 'agents'] as const,
};
