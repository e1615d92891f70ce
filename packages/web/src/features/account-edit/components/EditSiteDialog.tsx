/**
 * Edit Site dialog (spec 1 §2 Edit account, Sites; §3 Site; §7; §8): name, URL
 * name, domain name (the subdomain; the provider's domain suffix is fixed) and
 * port, validated on blur. Saves with `PUT /accounts/{id}/sites/{siteId}`
 * ('Site updated' / 'Error occurred updating site'); the server's field errors
 * are shown on their fields and the dialog stays open.
 */
import { Form, Input, InputNumber, Modal, Space } from 'antd';
import { PROVIDER_DOMAIN, type TSite, type TUpdateSiteRequest } from '@fleet/contracts';
import { ApiError } from '../../../app/api-client';
import { useUpdateSite } from '../api/mutations';

interface Props {
  accountId: number;
  site: TSite;
  onClose(): void;
}

type FormValues = Required<TUpdateSiteRequest>;

const SUFFIX = `.${PROVIDER_DOMAIN}`;
const FIELDS: (keyof FormValues)[] = ['name', 'urlFriendlyName', 'domainName', 'port'];

/** The subdomain part of a site's domain name. */
export const subdomainOf = (domainName: string) => (domainName.endsWith(SUFFIX) ? domainName.slice(0, -SUFFIX.length) : domainName);

/** Mounted per opening (the parent renders it only while open). */
export function EditSiteDialog({ accountId, site, onClose }: Props) {
  const [form] = Form.useForm<FormValues>();
  const update = useUpdateSite(accountId);
  const initial: FormValues = { name: site.name, urlFriendlyName: site.urlFriendlyName, domainName: subdomainOf(site.domainName), port: site.port };

  const onFinish = (values: FormValues) => {
    update.mutate(
      { siteId: site.id, body: values },
      {
        onSuccess: onClose,
        onError: (error) => {
          const fieldErrors = error instanceof ApiError ? error.errors.filter((e) => FIELDS.includes(e.propertyName as keyof FormValues)) : [];
          form.setFields(fieldErrors.map((e) => ({ name: e.propertyName as keyof FormValues, errors: [e.errorMessage] })));
        },
      },
    );
  };

  return (
    <Modal
      open
      title="Edit Site"
      okText="Save"
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ loading: update.isPending }}
      destroyOnHidden
    >
      <Form<FormValues> form={form} name="edit-site" layout="vertical" initialValues={initial} onFinish={onFinish} validateTrigger="onBlur">
        <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Site name is required' }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item label="URL-friendly name" name="urlFriendlyName">
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item label="Domain name" htmlFor="edit-site-domain">
          <Space.Compact block>
            <Form.Item name="domainName" noStyle>
              <Input id="edit-site-domain" maxLength={253} />
            </Form.Item>
            <Space.Addon>{SUFFIX}</Space.Addon>
          </Space.Compact>
        </Form.Item>
        <Form.Item label="Port" name="port" rules={[{ required: true, message: 'Port is required' }]}>
          <InputNumber min={1} max={65535} precision={0} style={{ width: 160 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
