/**
 * What the commands share: the output format of the command line
 * (`--output`, a global option), and the parsers of ids and lists whose
 * refusal commander reports as a bad command line (exit 2).
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { OutputFormat } from '../output.js';

/** The largest id the API takes (PostgreSQL `integer`). */
export const MAX_ID = 2_147_483_647;

/** The `--output` of the command line, from any command. */
export const formatOf = (command: Command): OutputFormat => command.optsWithGlobals<{ output: OutputFormat }>().output;

/** A whole number from 1 to {@link MAX_ID}. */
export function parseId(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > MAX_ID) throw new InvalidArgumentError(`'${value}' is not an id (a whole number from 1 to ${MAX_ID}).`);
  return n;
}

/** A whole number of at least `min` (and at most `max`). */
export const wholeNumber =
  (min: number, max = MAX_ID) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`'${value}' is not a whole number from ${min} to ${max}.`);
    return n;
  };

/** `1,2,3` → [1, 2, 3] (ids; duplicates kept once, in order). */
export function parseIdList(value: string): number[] {
  const ids = value.split(',').map((v) => v.trim()).filter((v) => v !== '');
  if (ids.length === 0) throw new InvalidArgumentError('Give at least one id (comma separated).');
  return [...new Set(ids.map(parseId))];
}

/** Commander's collector of a repeatable option or variadic argument of ids. */
export const collectIds = (value: string, previous: number[] = []): number[] => [...previous, ...parseIdList(value)];
