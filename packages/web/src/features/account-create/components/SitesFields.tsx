/**
 * The Sites tab of the create form (spec 1 §2 Create account): one row per site
 * with name, URL name, domain name (the subdomain; the provider's domain suffix
 * is fixed) and port. The first site is the site master. An AllInOne account has
 * exactly one site; an InstancePerSiteMaster account up to the license's
 * maxSites. Blank URL names are derived from the name by the server; a blank
 * domain name becomes `{site url name}-{account url name}` (spec 1 §3).
 *
 * Rendered inside a `<Form>` whose values are `SitesValues`.
 */
import { Button, Form, Input, InputNumber, Space, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { PROVIDER_DOMAIN } from '@fleet/contracts';
import { NEW_SITE_ROW } from '../creation-payload';

const SUFFIX = `.${PROVIDER_DOMAIN}`;

export function SitesFields({ maxSites, accountUrlName }: { maxSites: number; accountUrlName: string }) {
  return (
    <Form.List name="sites">
      {(fields, { add, remove }) => (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Table
            size="small"
            rowKey="key"
            pagination={false}
            dataSource={fields}
            aria-label="Sites"
            columns={[
              {
                title: 'Name',
                render: (_, field) => (
                  <Form.Item
                    name={[field.name, 'name']}
                    rules={[{ required: true, whitespace: true, message: 'Site name is required' }]}
                    style={{ margin: 0 }}
                    validateTrigger="onBlur"
                  >
                    <Input aria-label={`Site ${field.name + 1} name`} maxLength={200} />
                  </Form.Item>
                ),
              },
              {
                title: 'URL name',
                render: (_, field) => (
                  <Form.Item name={[field.name, 'urlFriendlyName']} style={{ margin: 0 }}>
                    <Input aria-label={`Site ${field.name + 1} URL name`} maxLength={100} />
                  </Form.Item>
                ),
              },
              {
                title: 'Domain name',
                render: (_, field) => (
                  <Form.Item noStyle shouldUpdate>
                    {({ getFieldValue }) => {
                      const siteUrl: string = getFieldValue(['sites', field.name, 'urlFriendlyName']) ?? '';
                      return (
                        <Space.Compact block>
                          <Form.Item name={[field.name, 'domainName']} noStyle>
                            <Input
                              aria-label={`Site ${field.name + 1} domain name`}
                              maxLength={253}
                              placeholder={siteUrl && accountUrlName ? `${siteUrl}-${accountUrlName}` : undefined}
                            />
                          </Form.Item>
                          <Space.Addon>{SUFFIX}</Space.Addon>
                        </Space.Compact>
                      );
                    }}
                  </Form.Item>
                ),
              },
              {
                title: 'Port',
                width: 130,
                render: (_, field) => (
                  <Form.Item name={[field.name, 'port']} rules={[{ required: true, message: 'Port is required' }]} style={{ margin: 0 }}>
                    <InputNumber aria-label={`Site ${field.name + 1} port`} min={1} max={65535} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                ),
              },
              {
                title: '',
                width: 56,
                render: (_, field) =>
                  field.name === 0 ? (
                    <Typography.Text type="secondary">master</Typography.Text>
                  ) : (
                    <Button type="text" danger icon={<DeleteOutlined aria-hidden />} aria-label={`Remove site ${field.name + 1}`} onClick={() => remove(field.name)} />
                  ),
              },
            ]}
          />
          <Button
            icon={<PlusOutlined aria-hidden />}
            disabled={fields.length >= maxSites}
            onClick={() => add({ ...NEW_SITE_ROW, name: `Site ${fields.length + 1}`, urlFriendlyName: `site${fields.length + 1}` })}
          >
            Add Site
          </Button>
          {fields.length >= maxSites && (
            <Typography.Text type="secondary">
              {maxSites === 1 ? 'This account has one site (AllInOne, or a license of one site).' : `The license allows ${maxSites} sites.`}
            </Typography.Text>
          )}
        </Space>
      )}
    </Form.List>
  );
}
