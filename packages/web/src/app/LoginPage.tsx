/**
 * The login page (spec 1 §2 Login): a validated username and password form.
 * A wrong password shows the server's detail ('Wrong username or password'),
 * and so does the sign-in throttle (429, 'Too many failed sign-ins. Try again
 * in N seconds.'). On success the token is stored and the login route's guard
 * sends the user back to the `redirect` parameter.
 */
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import type { TLoginRequest } from '@fleet/contracts';
import { errorText } from './api-client';
import { useAuth } from './auth/auth-context';
import { APP_NAME } from './RootLayout';

export default function LoginPage() {
  const { login } = useAuth();
  const signIn = useMutation({
    mutationFn: ({ username, password }: TLoginRequest) => login(username.trim(), password),
  });

  // Plain layout elements (no Card or Typography) keep the first screen's bundle small.
  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f0f2f5', padding: 16 }}>
      <div style={{ width: 380, maxWidth: '100%', background: '#fff', borderRadius: 8, padding: 32, boxShadow: '0 1px 4px rgba(0,0,0,0.08)' }}>
        <h1 style={{ margin: '0 0 4px', fontSize: 26, fontWeight: 600 }}>{APP_NAME}</h1>
        <p style={{ margin: '0 0 24px', color: 'rgba(0,0,0,0.55)' }}>Sign in with your operator account.</p>
        {signIn.isError && (
          <Alert
            type="error"
            showIcon
            role="alert"
            style={{ marginBottom: 16 }}
            title={errorText(signIn.error, 'Sign-in failed')}
          />
        )}
        <Form<TLoginRequest> layout="vertical" requiredMark={false} onFinish={(values) => signIn.mutate(values)}>
          <Form.Item
            label="Username"
            name="username"
            rules={[{ required: true, whitespace: true, message: 'Username is required' }]}
          >
            <Input prefix={<UserOutlined aria-hidden />} autoComplete="username" autoFocus maxLength={100} />
          </Form.Item>
          <Form.Item label="Password" name="password" rules={[{ required: true, message: 'Password is required' }]}>
            <Input.Password prefix={<LockOutlined aria-hidden />} autoComplete="current-password" maxLength={200} />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={signIn.isPending}>
            Log In
          </Button>
        </Form>
      </div>
    </main>
  );
}
