/**
 * A field and its values as people read them (issue 24 point 8), for the
 * change tables of the activity log and of the updater's dry run:
 * - {@link FieldName}: the field's label (`fieldLabel`: 'Site Master version
 *   mode' for `siteMasterVersionMode`) with the raw field name as a tooltip; a
 *   field without a label of its own (a configuration key) as it is.
 * - {@link FieldValue}: a value as text (`formatValue`); a component's version
 *   as `branch / hash` (`versionLabel`, spec 3 §2.8) with the stored value as a
 *   tooltip.
 */
import { Tooltip } from 'antd';
import { fieldLabel, isVersionField } from '../lib/field-labels';
import { formatValue } from '../lib/format';
import { versionLabel } from '../features/software-versions/version-format';

export function FieldName({ field, entity }: { field: string; entity?: string }) {
  const label = fieldLabel(field, entity);
  if (label === field) return <span>{field}</span>;
  return (
    <Tooltip title={field}>
      <span data-field={field}>{label}</span>
    </Tooltip>
  );
}

export function FieldValue({ field, value }: { field: string; value: unknown }) {
  const text = formatValue(value);
  if (typeof value !== 'string' || !isVersionField(field)) return <>{text}</>;
  const label = versionLabel(value);
  if (label === value) return <>{text}</>;
  return (
    <Tooltip title={value}>
      <span>{label}</span>
    </Tooltip>
  );
}
