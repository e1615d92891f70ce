/**
 * Machines and accounts an activity names, as links with their names (issue 24
 * point 6): a machine opens the Machines viewer filtered to it
 * (`/viewer/machines?machine={id}`), an account its edit page
 * (`/account/edit/{id}`). One the server did not name (deleted, hidden from the
 * user, or past the bound) shows as text: its name when the activity kept it,
 * else `Machine 17` / `Account 4`.
 */
import { Fragment } from 'react';
import { Link } from 'react-router';
import { Typography } from 'antd';
import type { TUserActivityDetail } from '@fleet/contracts';

export type Named = TUserActivityDetail['named'];

/** How many ids of a list are shown before '… and N more'. */
const SHOWN_IDS = 20;

const ENTITY = /^(Machine|Account) (\d{1,10})$/;

export function MachineLink({ id, named }: { id: number; named: Named | undefined }) {
  const machine = named?.machines.find((m) => m.id === id);
  if (!machine) return <>Machine {id}</>;
  return <Link to={`/viewer/machines?machine=${id}`}>{machine.name}</Link>;
}

export function AccountLink({ id, name, named }: { id: number; name?: string; named: Named | undefined }) {
  const account = named?.accounts.find((a) => a.id === id);
  if (!account) return <>{name ?? `Account ${id}`}</>;
  return <Link to={`/account/edit/${id}`}>{account.name}</Link>;
}

/**
 * A change's entity: a link for `Machine 17` / `Account 4`, and for `Machine` /
 * `Account` when the params name the one (`machineId`, `accountId`); else the
 * text as it is.
 */
export function EntityName({ entityName, params, named }: { entityName: string; params: Record<string, unknown>; named: Named | undefined }) {
  const m = ENTITY.exec(entityName);
  const id = m ? Number(m[2]) : entityName === 'Machine' ? params.machineId : entityName === 'Account' ? params.accountId : undefined;
  const kind = m ? m[1] : entityName;
  if (typeof id !== 'number' || !Number.isInteger(id)) return <>{entityName}</>;
  return kind === 'Machine' ? <MachineLink id={id} named={named} /> : <AccountLink id={id} named={named} />;
}

/**
 * Machines or accounts as links, the first {@link SHOWN_IDS}, then how many more
 * (an account's `name` is the one the activity kept, shown when it is not named).
 */
export function IdLinks({ kind, ids, named }: { kind: 'machine' | 'account'; ids: (number | { id: number; name: string })[]; named: Named | undefined }) {
  const shown = ids.slice(0, SHOWN_IDS).map((x) => (typeof x === 'number' ? { id: x, name: undefined } : x));
  return (
    // One inline box: a Descriptions cell lays out its children as flex items.
    <span>
      {shown.map(({ id, name }, i) => (
        <Fragment key={id}>
          {i > 0 && ', '}
          {kind === 'machine' ? <MachineLink id={id} named={named} /> : <AccountLink id={id} name={name} named={named} />}
        </Fragment>
      ))}
      {ids.length > shown.length && <Typography.Text type="secondary"> and {ids.length - shown.length} more</Typography.Text>}
    </span>
  );
}
