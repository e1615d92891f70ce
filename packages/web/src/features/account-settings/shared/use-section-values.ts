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
 * The first values load as the card first renders, before its fields mount,
 * so each field renders once, with its value: loaded in an effect after the
 * mount, every field of the card rendered a second time at once (about 150 ms
 * a card on a 2-core machine; issue 26, Total Blocking Time).
 *
 * The Instance Settings card loads differently (only a newer version, and only
 * while the form is untouched) and uses {@link loadSection} by itself.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
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

  // The first render: no field of the form is mounted yet, so none is told of the values.
  const [firstLoaded] = useState(() => {
    loadSection(form, values, reset);
    return loaded;
  });
  /** The section text last loaded into the form. */
  const lastLoaded = useRef(firstLoaded);
  const load = useCallback(() => {
    const section = JSON.parse(loaded) as { values: object };
    loadSection(form, section.values, reset);
    lastLoaded.current = loaded;
  }, [form, loaded, reset]);

  useEffect(() => {
    if (lastLoaded.current !== loaded) load();
  }, [load, loaded]);

  return { load };
}
