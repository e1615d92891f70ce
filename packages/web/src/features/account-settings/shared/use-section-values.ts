/**
 * Loading a settings section of an account into its card's form (DESIGN §5
 * section versions): the form takes the server's values when the account loads
 * and whenever the section changes on the server (a push, a Reload after a
 * conflict), not on other reloads of the account, so edits survive a push of
 * another card.
 *
 * `values` is the section as the account holds it (JSON data); a new version or
 * new values load it, the same values at the same version do not, even as a new
 * object. `reset` (default true) first resets the form, clearing what the user
 * touched and the fields' errors; without it the values are only set.
 *
 * The Instance Settings card loads differently (only a newer version, and only
 * while the form is untouched) and uses {@link loadSection} by itself.
 */
import { useCallback, useEffect } from 'react';
import type { FormInstance } from 'antd';

/** Replaces the values of `form` by `values` (a section as the server has it). */
export function loadSection(form: FormInstance, values: object, reset = true): void {
  if (reset) form.resetFields();
  form.setFieldsValue(values);
}

/**
 * Loads `values` into `form` now and whenever the section changes; returns
 * `load`, which loads them again (Revert Changes).
 */
export function useSectionValues(form: FormInstance, values: object, version: number, { reset = true }: { reset?: boolean } = {}) {
  // The section as the server has it: a new text means new values or a new version.
  const loaded = JSON.stringify({ version, values });

  const load = useCallback(() => {
    const section = JSON.parse(loaded) as { values: object };
    loadSection(form, section.values, reset);
  }, [form, loaded, reset]);

  useEffect(load, [load]);

  return { load };
}
