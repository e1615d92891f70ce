/**
 * Footer statistics of the accounts list (spec 1 §2): machine counts of the
 * classes Experimental, Internal Testing, Internal Production and Customer
 * Staging, and for each machine status the number of machines and of accounts
 * having such machines, from `GET /accounts/info` with the list's filters.
 * Nothing is shown until the first answer; failures are silent.
 */
import type { ReactNode } from 'react';
import { Flex, Typography } from 'antd';
import { FOOTER_CLASS_IDS, MACHINE_STATUSES, MACHINE_STATUS_LABELS, type TAccountsInfo } from '@fleet/contracts';

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span>
      <Typography.Text type="secondary">{label}: </Typography.Text>
      <Typography.Text strong>{children}</Typography.Text>
    </span>
  );
}

export function AccountsFooter({ info }: { info: TAccountsInfo | undefined }) {
  if (!info) return null;
  const classCounts = FOOTER_CLASS_IDS.flatMap((id) => info.classMachineCounts.filter((c) => c.id === id));

  return (
    <Flex component="section" aria-label="Account statistics" vertical gap={6} style={{ marginTop: 12 }}>
      <Flex wrap gap={16}>
        <Stat label="Accounts">{info.totalAccounts}</Stat>
        {classCounts.map((c) => (
          <Stat key={c.id} label={`${c.name} machines`}>
            {c.machines}
          </Stat>
        ))}
      </Flex>
      <Flex wrap gap={16}>
        <Stat label="Machines">{info.machineCounts.machines}</Stat>
        {MACHINE_STATUSES.map((status) => (
          <Stat key={status} label={MACHINE_STATUS_LABELS[status]}>
            {info.machineCounts[status]} ({info.accountCounts[status]} accounts)
          </Stat>
        ))}
      </Flex>
    </Flex>
  );
}
