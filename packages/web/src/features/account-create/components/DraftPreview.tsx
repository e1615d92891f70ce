/**
 * The preview of a draft (spec 1 §2 Create account, §4 draft → preview →
 * created; DESIGN §6 machines per instance policy): the planned machines, each
 * with its component config adjustable (defaults from the catalogue with the
 * variables substituted), and the planned sites. Back returns to the form with
 * its values kept; Create turns the draft into the account
 * (`POST /accounts/create-from-draft` with the adjusted configs of the machines
 * the user changed) and opens Edit Account.
 */
import { useMemo, useState } from 'react';
import { Alert, Button, Card, Flex, Skeleton, Table, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, CheckOutlined } from '@ant-design/icons';
import type { TComponentConfigKey, TPlannedMachine, TPlannedSite } from '@fleet/contracts';
import { errorText } from '../../../app/api-client';
import { useCreateFromDraft, useDraft } from '../api/drafts';
import { ComponentConfigEditor } from './ComponentConfigEditor';

interface Props {
  draftId: number;
  onBack(): void;
  onCreated(accountId: number): void;
}

function role(m: TPlannedMachine): string {
  if (m.isLauncher && m.isSiteMaster) return 'Launcher and site master';
  if (m.isLauncher) return 'Launcher';
  return 'Site master';
}

export function DraftPreview({ draftId, onBack, onCreated }: Props) {
  const draft = useDraft(draftId);
  const create = useCreateFromDraft();
  const [edited, setEdited] = useState<Record<string, Record<string, unknown>>>({});
  const keys = useMemo(
    () => new Map<string, TComponentConfigKey>((draft.data?.componentConfigKeys ?? []).map((k) => [k.key, k])),
    [draft.data],
  );

  if (draft.isError) {
    return <Alert type="error" showIcon title="The draft could not be loaded" description={errorText(draft.error, 'The draft could not be loaded')} />;
  }
  if (!draft.data) {
    return (
      <Card aria-busy="true" aria-label="Loading preview">
        <Skeleton active />
      </Card>
    );
  }
  const d = draft.data;

  const submit = () =>
    create.mutate({ draftAccountId: d.id, machineComponentConfigs: edited }, { onSuccess: ({ accountId }) => onCreated(accountId) });

  return (
    <Flex vertical gap={16}>
      <Card title={`Preview of ${d.payload.name}`} aria-label="Preview">
        <Typography.Paragraph type="secondary">
          Nothing exists yet. Check the machines and sites that Create will make; adjust a machine's component config by expanding its row.
        </Typography.Paragraph>
        <Typography.Title level={5}>Machines ({d.machines.length})</Typography.Title>
        <Table<TPlannedMachine>
          size="small"
          rowKey="name"
          pagination={false}
          dataSource={d.machines}
          aria-label="Planned machines"
          locale={{ emptyText: 'An add-on account has no machines' }}
          expandable={{
            expandedRowRender: (m) => (
              <ComponentConfigEditor
                machineName={m.name}
                keys={keys}
                value={edited[m.name] ?? m.componentConfig}
                onChange={(next) => setEdited((prev) => ({ ...prev, [m.name]: next }))}
              />
            ),
          }}
          columns={[
            { title: 'Name', dataIndex: 'name' },
            { title: 'Role', render: (_, m) => role(m) },
            { title: 'Site', dataIndex: 'siteUrlFriendlyName', render: (v: string | null) => v ?? '—' },
            { title: 'Config', render: (_, m) => (edited[m.name] ? <Tag color="orange">adjusted</Tag> : <Tag>defaults</Tag>) },
          ]}
        />
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          Sites ({d.sites.length})
        </Typography.Title>
        <Table<TPlannedSite>
          size="small"
          rowKey="urlFriendlyName"
          pagination={false}
          dataSource={d.sites}
          aria-label="Planned sites"
          locale={{ emptyText: 'No sites' }}
          columns={[
            { title: 'Name', dataIndex: 'name' },
            { title: 'URL name', dataIndex: 'urlFriendlyName' },
            { title: 'Domain name', dataIndex: 'domainName' },
            { title: 'Port', dataIndex: 'port' },
          ]}
        />
        {create.isError && (
          <Alert
            type="error"
            showIcon
            style={{ marginTop: 16 }}
            title="The account could not be created"
            description={errorText(create.error, 'The account could not be created')}
          />
        )}
      </Card>
      <Flex justify="end" gap={8}>
        <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={onBack} disabled={create.isPending}>
          Back
        </Button>
        <Button type="primary" icon={<CheckOutlined aria-hidden />} onClick={submit} loading={create.isPending}>
          Create
        </Button>
      </Flex>
    </Flex>
  );
}
