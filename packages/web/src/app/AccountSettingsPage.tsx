/**
 * Account Settings (user menu, spec 1 §2 Shell): the signed-in user's name,
 * email, roles (spec 1 §3 Session state; named by the server from the
 * permissions and groups), permissions and groups, and a change-password form calling
 * `PUT /user/password`. Success toast 'Password changed'; the server's field
 * errors (e.g. a wrong current password) are shown on their fields, other
 * errors as an error toast with the server's detail.
 */
import { Button, Card, Descriptions, Flex, Form, Input, Tag, Typography } from 'antd';
import type { TChangePasswordRequest } from '@fleet/contracts';
import { ApiError, errorText } from './api-client';
import { useChangePassword } from './auth/auth-api';
import { useAuth } from './auth/auth-context';
import { useToast } from './toast';

/** Shortest new password, characters (contracts ZChangePasswordRequest). */
const MIN_PASSWORD_LENGTH = 8;

interface PasswordForm extends TChangePasswordRequest {
  confirmPassword: string;
}

const FIELDS: (keyof PasswordForm)[] = ['currentPassword', 'newPassword', 'confirmPassword'];

function Tags({ values }: { values: string[] }) {
  if (values.length === 0) return <Typography.Text type="secondary">None</Typography.Text>;
  return (
    <Flex wrap gap={4}>
      {values.map((v) => (
        <Tag key={v}>{v}</Tag>
      ))}
    </Flex>
  );
}

export default function AccountSettingsPage() {
  const { user } = useAuth();
  const toast = useToast();
  const changePassword = useChangePassword();
  const [form] = Form.useForm<PasswordForm>();

  const onFinish = ({ currentPassword, newPassword }: PasswordForm) => {
    changePassword.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          toast.success('Password changed');
          form.resetFields();
        },
        onError: (error) => {
          const fieldErrors = error instanceof ApiError ? error.errors.filter((e) => FIELDS.includes(e.propertyName as keyof PasswordForm)) : [];
          if (fieldErrors.length > 0) {
            form.setFields(fieldErrors.map((e) => ({ name: e.propertyName as keyof PasswordForm, errors: [e.errorMessage] })));
          } else {
            toast.error(errorText(error, 'Error occurred changing password'));
          }
        },
      },
    );
  };

  return (
    <Flex vertical gap={16} style={{ maxWidth: 720 }}>
      <Card title="Account Settings">
        <Descriptions
          column={1}
          bordered
          size="small"
          items={[
            { key: 'name', label: 'Name', children: user?.name },
            { key: 'email', label: 'Email', children: user?.email },
            { key: 'roles', label: 'Roles', children: <Tags values={user?.roles ?? []} /> },
            { key: 'permissions', label: 'Permissions', children: <Tags values={user?.permissions ?? []} /> },
            { key: 'groups', label: 'Groups', children: <Tags values={user?.groups ?? []} /> },
          ]}
        />
      </Card>
      <Card title="Change password">
        <Form<PasswordForm> form={form} layout="vertical" onFinish={onFinish} validateTrigger="onBlur" style={{ maxWidth: 400 }}>
          <Form.Item label="Current password" name="currentPassword" rules={[{ required: true, message: 'Current password is required' }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            label="New password"
            name="newPassword"
            rules={[
              { required: true, message: 'New password is required' },
              { min: MIN_PASSWORD_LENGTH, message: `New password must have at least ${MIN_PASSWORD_LENGTH} characters` },
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label="Confirm new password"
            name="confirmPassword"
            dependencies={['newPassword']}
            rules={[
              { required: true, message: 'Please confirm the new password' },
              ({ getFieldValue }) => ({
                validator: (_, value: string | undefined) =>
                  !value || getFieldValue('newPassword') === value
                    ? Promise.resolve()
                    : Promise.reject(new Error('The passwords do not match')),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={changePassword.isPending}>
            Change password
          </Button>
        </Form>
      </Card>
    </Flex>
  );
}
