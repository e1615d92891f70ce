/** Contracts of the Fleet Console API: the one source of request and response types. */
export * from './common.js';
export * from './auth.js';
export * from './classes.js';
export * from './accounts.js';
export * from './audit.js';
export * from './fleet.js';
