/** Query keys of the fleet counters (spec 3 §2.9). */
export const fleetKeys = {
  all: ['fleet'] as const,
  machineStats: () => [...fleetKeys.all, 'machine-stats'] as const,
  mmaStats: () => [...fleetKeys.all, 'mma-stats'] as const,
  freeze: () => [...fleetKeys.all, 'freeze'] as const,
};
