/** Contracts of the Fleet Console API: the one source of request and response types. */
export * from './constants.js';
export * from './common.js';
export * from './auth.js';
export * from './classes.js';
export * from './accounts.js';
export * from './audit.js';
export * from './fleet.js';
export * from './machines.js';
export * from './account-sections.js';
export * from './account-detail.js';
export * from './account-creation.js';
export * from './templates.js';
export * from './catalogues.js';
export * from './software-update.js';
export * from './license.js';
export * from './config-definitions.js';
export * from './account-keys.js';
