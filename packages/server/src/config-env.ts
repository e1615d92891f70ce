/**
 * Reading the environment for `config.ts` and the settings of its parts
 * (`engine/cloud/aws.config.ts`): each helper throws a {@link ConfigError}
 * that names the variable, what it must be and what it was.
 */

export class ConfigError extends Error {}

/** A comma list of names, blanks dropped. */
export const nameList = (value: string | undefined) => (value ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '');

/** One of `allowed` from the environment, or `fallback` when unset. */
export function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got '${value}')`);
}

/** A whole number of at least `min` from the environment, or `fallback` when unset; `what` names its unit in the error. */
export function wholeNumber(name: string, value: string | undefined, fallback: number, what = 'requests a minute', min = 1): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be a whole number of ${what}, at least ${min} (got '${value}')`);
  return n;
}
