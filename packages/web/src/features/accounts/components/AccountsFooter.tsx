/**
 * Footer statistics of the accounts list (spec 1 §2): machine counts of the
 * classes Experimental, Internal Testing, Internal Production and Customer
 * Staging, and for each machine status the number of machines and of accounts
 * having such machines, from `GET /accounts/info` with the list's filters.
 * Nothing is shown until the first answer; failures are silent.
 *
 * The machines are counted in the top bar's scope (features/fleet/count-scope.ts),
 * of the listed accounts: with every class listed the footer equals the top bar.
 * The per-class counts add up to "Machines" with "Other classes" (the classes
 * the spec leaves out of the footer: Customer Production, On Premise).
 */
import type { ReactNode } from 'react';
import { Flex, Tooltip, Typography } from 'antd';
import { ACCOUNT_CLASSES, CLASS_ADD_ON, FOOTER_CLASS_IDS, MACHINE_STATUSES, MACHINE_STATUS_LABELS, type TAccountsInfo } from '@fleet/contracts';
import { FLEET_COUNT_SCOPE, HIDDEN_CLASS_RULE } from '../../fleet/count-scope';

/** The classes counted in "Machines" but not shown one by one (spec 1 §2 names four). */
const OTHER_CLASSES = ACCOUNT_CLASSES.filter((c) => c.id !== CLASS_ADD_ON && !FOOTER_CLASS_IDS.includes(c.id)).map((c) => c.name);

/** The scope of the footer's machine counts, for its tooltips. */
const SCOPE = `${FLEET_COUNT_SCOPE[0]!.toUpperCase()}${FLEET_COUNT_SCOPE.slice(1)}, of the listed accounts (${HIDDEN_CLASS_RULE})`;

function Stat({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  const stat = (
    <span>
      <Typography.Text type="secondary">{label}: </Typography.Text>
      <Typography.Text strong>{children}</Typography.Text>
    </span>
  );
  return hint ? <Tooltip title={hint}>{stat}</Tooltip> : stat;
}

export function AccountsFooter({ info }: { info: TAccountsInfo | undefined }) {
  if (!info) return null;
  const classCounts = FOOTER_CLASS_IDS.flatMap((id) => info.classMachineCounts.filter((c) => c.id === id));
  const otherMachines = info.machineCounts.machines - classCounts.reduce((sum, c) => sum + c.machines, 0);

  return (
    <Flex component="section" aria-label="Account statistics" vertical gap={6} style={{ marginTop: 12 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        Machine counts: {FLEET_COUNT_SCOPE}, of the listed accounts only (the top bar counts every class).
      </Typography.Text>
      <Flex wrap gap={16}>
        <Stat label="Accounts">{info.totalAccounts}</Stat>
        {classCounts.map((c) => (
          <Stat key={c.id} label={`${c.name} machines`} hint={`${SCOPE}, of class ${c.name}`}>
            {c.machines}
          </Stat>
        ))}
        <Stat label={`${OTHER_CLASSES.join(' + ')} machines`} hint={`${SCOPE}, of the classes ${OTHER_CLASSES.join(' and ')}: with the four above they make Machines`}>
          {otherMachines}
        </Stat>
      </Flex>
      <Flex wrap gap={16}>
        <Stat label="Machines" hint={SCOPE}>
          {info.machineCounts.machines}
        </Stat>
        {MACHINE_STATUSES.map((status) => (
          <Stat key={status} label={MACHINE_STATUS_LABELS[status]} hint={`${SCOPE}; in brackets the listed accounts having such machines`}>
            {info.machineCounts[status]} ({info.accountCounts[status]} accounts)
          </Stat>
        ))}
      </Flex>
    </Flex>
  );
}
