/**
 * An activity's params as fields (spec 2 §2.11 "Params (property, value)"; issue
 * 24 point 6): antd Descriptions, a label per property (`fieldLabel`: the
 * form's label, `smchkVersionMode` → 'Site Master Validator version mode', else
 * the name in words) and its value:
 *
 * - machine ids (machineId, machineIds, machines) and account ids (accountId,
 *   accountIds, accounts) as links with their names (`ActivityLinks`), the first
 *   20 then how many more; `rolloutId` as a link to the rollout;
 * - an object as nested fields (two levels; deeper, a small flat one as
 *   'kind: count, value: 2', else JSON text);
 * - a list of plain values joined by commas, the first 20 then how many more;
 * - a component's version as `branch / hash` (spec 3 §2.8);
 * - true/false as Yes/No, null and empty as '—', other values as they are.
 */
import type { ReactNode } from 'react';
import { Descriptions, Typography } from 'antd';
import { Link } from 'react-router';
import { fieldLabel, isVersionField } from '../../../lib/field-labels';
import { versionLabel } from '../../software-versions/version-format';
import { IdLinks, type Named } from './ActivityLinks';

const MACHINE_PARAMS = new Set(['machineId', 'machineIds', 'machines']);
const ACCOUNT_PARAMS = new Set(['accountId', 'accountIds', 'accounts']);
/** How many values of a plain list are shown before '… and N more'. */
const SHOWN_VALUES = 20;
/** Nesting shown as fields; deeper objects are JSON text. */
const MAX_DEPTH = 2;

const isIds = (v: unknown): v is number | number[] =>
  (typeof v === 'number' && Number.isInteger(v)) || (Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isInteger(x)));

function plain(value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return <Typography.Text type="secondary">—</Typography.Text>;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  const entries = typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
  // A small flat object (a wave of a plan) reads as 'kind: count, value: 2'.
  if (entries.length > 0 && entries.length <= 6 && entries.every(([, v]) => v === null || typeof v !== 'object')) {
    return entries.map(([k, v]) => `${fieldLabel(k).toLowerCase()}: ${String(v)}`).join(', ');
  }
  return <Typography.Text code>{JSON.stringify(value)}</Typography.Text>;
}

function valueOf(key: string, value: unknown, named: Named | undefined, depth: number): ReactNode {
  if (MACHINE_PARAMS.has(key) && isIds(value)) return <IdLinks kind="machine" ids={[value].flat()} named={named} />;
  if (ACCOUNT_PARAMS.has(key) && isIds(value)) return <IdLinks kind="account" ids={[value].flat()} named={named} />;
  if (key === 'rolloutId' && typeof value === 'number') return <Link to={`/rollouts/${value}`}>Rollout {value}</Link>;
  if (isVersionField(key) && typeof value === 'string' && value) return versionLabel(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return plain(null);
    if (value.some((v) => typeof v === 'object' && v !== null)) {
      return depth < MAX_DEPTH ? (
        <ol style={{ margin: 0, paddingInlineStart: 20 }}>
          {value.slice(0, SHOWN_VALUES).map((v, i) => (
            <li key={i}>{valueOf(key, v, named, depth + 1)}</li>
          ))}
        </ol>
      ) : (
        plain(value)
      );
    }
    const shown = value.slice(0, SHOWN_VALUES).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    return (
      <span>
        {shown.join(', ')}
        {value.length > shown.length && <Typography.Text type="secondary"> and {value.length - shown.length} more</Typography.Text>}
      </span>
    );
  }
  if (typeof value === 'object' && value !== null) {
    if (depth >= MAX_DEPTH) return plain(value);
    return <ParamFields params={value as Record<string, unknown>} named={named} depth={depth + 1} />;
  }
  return plain(value);
}

/** The params as label and value (nested objects as nested fields). */
export function ParamFields({ params, named, depth = 0 }: { params: Record<string, unknown>; named: Named | undefined; depth?: number }) {
  const entries = Object.entries(params);
  if (entries.length === 0) return <Typography.Text type="secondary">None</Typography.Text>;
  return (
    <Descriptions
      bordered
      size="small"
      column={1}
      styles={{ label: { width: depth === 0 ? 200 : 160, verticalAlign: 'top' } }}
      items={entries.map(([key, value]) => ({ key, label: fieldLabel(key), children: valueOf(key, value, named, depth) }))}
    />
  );
}
