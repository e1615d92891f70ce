/**
 * The contracts' schema values the console uses at run time (section defaults,
 * template keys), computed at build time from the schemas themselves
 * (`consoleSchemaValues` in packages/contracts/src/console-values.ts; Vite's
 * `define`), so that no first screen loads zod to compute them (issue 26).
 */
import type { TConsoleSchemaValues } from '@fleet/contracts';

declare const __CONSOLE_SCHEMA_VALUES__: TConsoleSchemaValues;

export const SCHEMA_VALUES: TConsoleSchemaValues = __CONSOLE_SCHEMA_VALUES__;
