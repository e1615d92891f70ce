/**
 * Rules of the config definition editor without React (spec 3 §2.5, §5): the
 * default text of each data type, what a data type change resets, and the
 * edit payload (only the editable fields; empty text of a typed value is "no
 * default").
 */
import {
  configDefaultTextError,
  configTypeDefault,
  type TConfigDataType,
  type TConfigDataTypeName,
} from '@fleet/contracts';

/** The data type's name in the editor (null is string). */
export const typeName = (dataType: TConfigDataType): TConfigDataTypeName => dataType ?? 'string';
/** The stored data type of a name (string is null). */
export const storedType = (name: TConfigDataTypeName): TConfigDataType => (name === 'string' ? null : name);

/** The default text of a data type: `0`, empty, `false` or `{}` (spec 3 §2.5). */
export function typeDefaultText(name: TConfigDataTypeName): string {
  const value = configTypeDefault(storedType(name));
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A value of the form as the API takes it: empty text of a typed value is null (no default). */
export function valueToSend(text: string | null | undefined, name: TConfigDataTypeName): string | null {
  if (text === null || text === undefined) return null;
  return name !== 'string' && text.trim() === '' ? null : text;
}

/** Why a value cannot be saved, or null (the server's rule, `configDefaultTextError`). */
export const valueError = (text: string | null | undefined, name: TConfigDataTypeName): string | null =>
  configDefaultTextError(valueToSend(text, name), storedType(name));

/** The colour of a version tag by its status (spec 3 §2.5). */
export const VERSION_STATUS_COLOURS: Record<string, string> = { InDevelopment: 'orange', Planned: 'blue', Released: 'green' };

/** `text` with `insert` put at `[start, end)` (a variable inserted at the cursor, replacing a selection). */
export function insertAt(text: string, insert: string, start: number, end = start): string {
  return text.slice(0, start) + insert + text.slice(end);
}
