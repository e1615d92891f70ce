/**
 * The login page (spec 1 §2 Login): a validated username and password form.
 * A wrong password shows the server's detail ('Wrong username or password'),
 * and so does the sign-in throttle (429, 'Too many failed sign-ins. Try again
 * in N seconds.'). On success the token is stored and the login route's guard
 * sends the user back to the `redirect` parameter.
 *
 * Single sign-on (issue 28 point 2): when `GET /auth/sso` says it is on, a
 * 'Sign in with <name>' link (the server's start of a sign-in at the provider)
 * follows the form; with `LOCAL_LOGIN=false` the form is not shown. The
 * provider's callback comes back here as `?sso=<one-time code>`, exchanged once
 * for the token; a sign-in the callback refused comes back as `?ssoError=<why>`,
 * told in this page's own words (never text from the URL).
 */
import { useEffect, useRef } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Alert, Button, Form, Input, Spin } from 'antd';
import { LockOutlined, LoginOutlined, UserOutlined } from '@ant-design/icons';
import type { TLoginRequest } from '@fleet/contracts';
import { errorText } from './api-client';
import { authKeys, fetchSsoInfo, ssoStartUrl } from './auth/auth-api';
import { ssoFailureText } from './auth/sso-failure';
import { useAuth } from './auth/auth-context';
import { safeRedirect } from './guards';
import { APP_NAME } from './RootLayout';

export default function LoginPage() {
  const { login, loginWithSsoCode } = useAuth();
  const [params] = useSearchParams();
  const ssoCode = params.get('sso');
  const signIn = useMutation({
    mutationFn: ({ username, password }: TLoginRequest) => login(username.trim(), password),
  });
  const ssoInfo = useQuery({ queryKey: authKeys.sso(), queryFn: ({ signal }) => fetchSsoInfo(signal), staleTime: Infinity });
  const ssoSignIn = useMutation({ mutationFn: loginWithSsoCode });

  // The code is valid once: exchanged on the first render that has it, never again (StrictMode renders twice).
  const exchanged = useRef<string | null>(null);
  const { mutate: exchangeCode } = ssoSignIn;
  useEffect(() => {
    if (!ssoCode || exchanged.current === ssoCode) return;
    exchanged.current = ssoCode;
    exchangeCode(ssoCode);
  }, [ssoCode, exchangeCode]);

  const sso = ssoInfo.data;
  const localLogin = sso?.localLogin !== false;
  const ssoFailure = params.get('ssoError');
  const error = signIn.isError
    ? errorText(signIn.error, 'Sign-in failed')
    : ssoSignIn.isError
      ? errorText(ssoSignIn.error, 'Sign-in failed')
      : ssoFailure !== null
        ? (ssoFailureText(ssoFailure, sso?.name ?? undefined) ?? 'The single sign-on failed. Start it again.')
        : undefined;

  // Plain layout elements (no Card or Typography) keep the first screen's bundle small.
  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f0f2f5', padding: 16 }}>
      <div style={{ width: 380, maxWidth: '100%', background: '#fff', borderRadius: 8, padding: 32, boxShadow: '0 1px 4px rgba(0,0,0,0.08)' }}>
        <h1 style={{ margin: '0 0 4px', fontSize: 26, fontWeight: 600 }}>{APP_NAME}</h1>
        <p style={{ margin: '0 0 24px', color: 'rgba(0,0,0,0.55)' }}>
          {localLogin ? 'Sign in with your operator account.' : `Sign in with ${sso?.name ?? 'single sign-on'}.`}
        </p>
        {error !== undefined && <Alert type="error" showIcon role="alert" style={{ marginBottom: 16 }} title={error} />}
        {ssoSignIn.isPending && (
          <div role="status" style={{ display: 'flex', gap: 8, alignItems: 'center', marginBottom: 16 }}>
            <Spin size="small" /> Signing you in…
          </div>
        )}
        {localLogin && (
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
        )}
        {sso?.enabled && (
          // A link, not a button: it leaves the console for the provider's sign-in page.
          <Button
            href={ssoStartUrl(safeRedirect(params.get('redirect')))}
            type={localLogin ? 'default' : 'primary'}
            block
            icon={<LoginOutlined aria-hidden />}
            style={{ marginTop: localLogin ? 16 : 0 }}
          >
            Sign in with {sso.name}
          </Button>
        )}
      </div>
    </main>
  );
}
