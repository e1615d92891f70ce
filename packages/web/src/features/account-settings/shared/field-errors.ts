/**
 * Server field errors on a section form (DESIGN §5 problem details): each
 * `errors[]` entry of a 400 (or of a 409 that names a field, such as a duplicate
 * URL name) is shown under its field. `propertyName` is the dotted path of the
 * body (`contact.email`, `features.2`); a list element's error goes on the list
 * field (`features`). Errors of one field are joined under it. A form whose
 * fields are named otherwise (the create form's flattened payload) passes
 * `toName`, which gives the field of a `propertyName` in that form, or
 * undefined for an error that is not this form's.
 */
import type { FormInstance } from 'antd';
import { ApiError } from '../../../app/api-client';

/** The form path of a `propertyName`: dotted segments, list indices dropped. */
function fieldPath(propertyName: string): string[] {
  return propertyName.split('.').filter((segment) => segment !== '' && !/^\d+$/.test(segment));
}

/** Shows the field errors of `error` (an `ApiError`) on `form`; anything else is left to the toast. Returns how many fields got one. */
export function showFieldErrors(
  form: FormInstance,
  error: unknown,
  toName: (propertyName: string) => (string | number)[] | undefined = fieldPath,
): number {
  if (!(error instanceof ApiError) || error.errors.length === 0) return 0;
  const byField = new Map<string, { name: (string | number)[]; errors: string[] }>();
  for (const e of error.errors) {
    const name = toName(e.propertyName);
    if (!name || name.length === 0) continue;
    const key = name.join('.');
    const entry = byField.get(key) ?? { name, errors: [] };
    if (!entry.errors.includes(e.errorMessage)) entry.errors.push(e.errorMessage);
    byField.set(key, entry);
  }
  if (byField.size > 0) form.setFields([...byField.values()]);
  return byField.size;
}
