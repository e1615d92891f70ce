/**
 * Guards for input that the contracts' schemas cannot express (DESIGN §5: never a
 * 500 for bad input), applied to every `/api/v1` route by `app.ts`:
 *
 * - `nulByteErrors`: PostgreSQL cannot store U+0000 in `text` or `jsonb` (it answers
 *   SQLSTATE 22021 / 22P05), so a NUL byte in any string or object key of the body,
 *   query or path is refused up front with a field error naming where it is.
 * - `databaseInputError`: the backstop behind the schemas. A PostgreSQL data
 *   exception (SQLSTATE class 22: out of range, invalid text representation, …)
 *   can only come from a value that passed validation, so it is answered as 400
 *   and logged as a defect of the schemas, never as a 500.
 */
import type { TFieldError } from '@fleet/contracts';

/** Most values walked in one request part; a 1 MB body holds far fewer. */
const MAX_VISITS = 1_000_000;
const NUL_MESSAGE = 'Must not contain a NUL character';

/**
 * Field errors for each string value or object key holding U+0000 in `value` (a
 * body, query or params object), at most 20. A body's fields are named by their
 * path (`componentConfig.a.b`, `sites.0.name`); query and path parameters by the
 * parameter alone (`topLevelOnly`), as `fieldErrors` in `app.ts` names them. Walks
 * iteratively, so a deeply nested body cannot exhaust the stack.
 */
export function nulByteErrors(value: unknown, opts: { topLevelOnly: boolean }): TFieldError[] {
  // A path is a linked list (parent, key), built into a name only for an error:
  // copying it at every level would cost depth² on a deeply nested body.
  interface Step {
    parent: Step | undefined;
    key: string;
  }
  const name = (step: Step | undefined) => {
    const path: string[] = [];
    for (let s = step; s; s = s.parent) path.unshift(s.key);
    return (opts.topLevelOnly ? path.slice(0, 1) : path).join('.') || 'body';
  };
  const errors: TFieldError[] = [];
  const stack: [unknown, Step | undefined][] = [[value, undefined]];
  for (let visits = 0; stack.length > 0 && errors.length < 20 && visits < MAX_VISITS; visits++) {
    const [item, at] = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) errors.push({ propertyName: name(at), errorMessage: NUL_MESSAGE });
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const step = { parent: at, key };
        if (key.includes('\u0000')) errors.push({ propertyName: name(step), errorMessage: NUL_MESSAGE });
        stack.push([child, step]);
      }
    }
  }
  return errors;
}

/** SQLSTATE of a PostgreSQL error, also when Drizzle wraps it (`DrizzleQueryError.cause`). */
export function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  return code && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** True for a PostgreSQL data exception (SQLSTATE class 22), which only input can cause. */
export function isDatabaseInputError(err: unknown): boolean {
  return sqlState(err)?.startsWith('22') ?? false;
}
