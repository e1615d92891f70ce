/**
 * Server field errors on a section form (DESIGN §5 problem details): each
 * `errors[]` entry of a 400 (or of a 409 that names a field, such as a duplicate
 * URL name) is shown under its field. `propertyName` is the dotted path of the
 * body (`contact.email`, `features.2`); a list element's error goes on the list
 * field (`features`). Errors of one field are joined under it.
 */
import type { FormInstance } from 'antd';
import { ApiError } from '../../../app/api-client';

/** The form path of a `propertyName`: dotted segments, list indices dropped. */
export function fieldPath(propertyName: string): string[] {
  return propertyName.split('.').filter((segment) => segment !== '' && !/^\d+$/.test(segment));
}

/** Shows the field errors of `error` (an `ApiError`) on `form`; anything else is left to the toast. Returns how many fields got one. */
export function showFieldErrors(form: FormInstance, error: unknown): number {
  if (!(error instanceof ApiError) || error.errors.length === 0) return 0;
  const byField = new Map<string, { name: string[]; errors: string[] }>();
  for (const e of error.errors) {
    const name = fieldPath(e.propertyName);
    if (name.length === 0) continue;
    const key = name.join('.');
    const entry = byField.get(key) ?? { name, errors: [] };
    if (!entry.errors.includes(e.errorMessage)) entry.errors.push(e.errorMessage);
    byField.set(key, entry);
  }
  form.setFields([...byField.values()]);
  return byField.size;
}
