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
 *
 * The two fields are checked by this page, not by antd's Form (issue 26: the
 * login page's script ≤ 200 KB gzip; Form and its validator are 12 KB of it):
 * each says why it is refused once it was changed or the form submitted, the
 * server is not called while one is refused, and the first refused field gets
 * the focus. Each field's error line has its room from the start, so nothing
 * moves when it shows.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Alert, Button, Spin, type InputRef } from 'antd';
// The two inputs from their own modules: antd's `Input` index adds Search, TextArea and OTP to it (about 4 KB gzip).
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, LoginOutlined, UserOutlined } from '@ant-design/icons';
import type { TLoginRequest } from '@fleet/contracts';
import { errorText } from './api-client';
import { authKeys, fetchSsoInfo, ssoStartUrl } from './auth/auth-api';
import { ssoFailureText } from './auth/sso-failure';
import { useAuth } from './auth/auth-context';
import { safeRedirect } from './guards';
import { APP_NAME } from './RootLayout';
import { ERROR_RED } from './theme';

type Field = keyof TLoginRequest;

/** Why a field's value is refused, or undefined: both are required, the username not blank either. */
function refusal(field: Field, value: string): string | undefined {
  if (field === 'username') return value.trim() === '' ? 'Username is required' : undefined;
  return value === '' ? 'Password is required' : undefined;
}

/** A labelled field with its error line under it, in the room kept for it (ids `login-<field>`, `login-<field>-error`). */
function LoginField({ field, label, error, children }: { field: Field; label: string; error: string | undefined; children: ReactNode }) {
  return (
    <div style={{ paddingBottom: 24, position: 'relative' }}>
      <label htmlFor={`login-${field}`} style={{ display: 'block', paddingBottom: 8 }}>
        {label}
      </label>
      {children}
      {error !== undefined && (
        <div id={`login-${field}-error`} role="alert" style={{ position: 'absolute', bottom: 1, color: ERROR_RED, lineHeight: '22px' }}>
          {error}
        </div>
      )}
    </div>
  );
}

/** The username and password form: {@link refusal} checks each, `onSubmit` gets the values once both are accepted. */
function LoginForm({ pending, onSubmit }: { pending: boolean; onSubmit(values: TLoginRequest): void }) {
  const [values, setValues] = useState<TLoginRequest>({ username: '', password: '' });
  const [shown, setShown] = useState<Record<Field, boolean>>({ username: false, password: false });
  const usernameInput = useRef<InputRef>(null);
  const passwordInput = useRef<InputRef>(null);
  const error = (field: Field) => (shown[field] ? refusal(field, values[field]) : undefined);
  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setShown((s) => ({ ...s, [field]: true }));
  };
  const fieldProps = (field: Field) => ({
    id: `login-${field}`,
    value: values[field],
    onChange: (e: { target: { value: string } }) => change(field, e.target.value),
    status: error(field) === undefined ? undefined : ('error' as const),
    'aria-required': true,
    'aria-invalid': error(field) !== undefined,
    'aria-describedby': error(field) === undefined ? undefined : `login-${field}-error`,
  });
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setShown({ username: true, password: true });
        const refused = (['username', 'password'] as const).find((field) => refusal(field, values[field]) !== undefined);
        if (refused) (refused === 'username' ? usernameInput : passwordInput).current?.focus();
        else onSubmit(values);
      }}
    >
      <LoginField field="username" label="Username" error={error('username')}>
        <Input {...fieldProps('username')} ref={usernameInput} prefix={<UserOutlined aria-hidden />} autoComplete="username" autoFocus maxLength={100} />
      </LoginField>
      <LoginField field="password" label="Password" error={error('password')}>
        <Password {...fieldProps('password')} ref={passwordInput} prefix={<LockOutlined aria-hidden />} autoComplete="current-password" maxLength={200} />
      </LoginField>
      <Button type="primary" htmlType="submit" block loading={pending}>
        Log In
      </Button>
    </form>
  );
}

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
          <LoginForm pending={signIn.isPending} onSubmit={(values) => signIn.mutate(values)} />
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
