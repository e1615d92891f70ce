/**
 * A read-only summary of the account's properties (spec 1 §2 Account Properties
 * card): name, URL name, customer, contact, class, parent (add-on accounts) and
 * the launcher URL with a copy button. The editable settings cards are built
 * separately.
 */
import { Card, Descriptions, Typography } from 'antd';
import type { TAccountDetail } from '@fleet/contracts';

const none = <Typography.Text type="secondary">—</Typography.Text>;

function contactText(contact: TAccountDetail['contact']): string {
  return [contact.name, contact.email, contact.phone1, contact.phone2].filter(Boolean).join(', ');
}

export function AccountPropertiesSummary({ account }: { account: TAccountDetail }) {
  const items = [
    { key: 'name', label: 'Name', children: account.name },
    { key: 'urlFriendlyName', label: 'URL name', children: account.urlFriendlyName },
    { key: 'customer', label: 'Customer', children: account.customer || none },
    { key: 'contact', label: 'Contact', children: contactText(account.contact) || none },
    { key: 'class', label: 'Class', children: account.class.name },
    ...(account.parent ? [{ key: 'parent', label: 'Parent account', children: account.parent.name }] : []),
    {
      key: 'launcherUrl',
      label: 'Launcher URL',
      children: account.launcherUrl ? (
        <Typography.Link href={account.launcherUrl} target="_blank" rel="noreferrer" copyable={{ text: account.launcherUrl }}>
          {account.launcherUrl}
        </Typography.Link>
      ) : (
        none
      ),
    },
  ];
  return (
    <Card title="Account Properties" size="small">
      <Descriptions size="small" column={{ xs: 1, md: 2 }} items={items} />
    </Card>
  );
}
