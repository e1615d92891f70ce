/** Query keys of catalogue lookups (spec 1 §7 Lookups, spec 3 §7 Cloud). */
export const catalogueKeys = {
  all: ['catalogues'] as const,
  saasImages: () => [...catalogueKeys.all, 'saas-images'] as const,
  irmnVersions: () => [...catalogueKeys.all, 'irmn-versions'] as const,
};
