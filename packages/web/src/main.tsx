/**
 * Entry of the console (DESIGN §10): antd theme (colours with enough contrast,
 * app/theme.ts; target sizes, app/accessibility.css), toasts, the query client,
 * the session, then the hash router; the first screen's reads start as soon as
 * the user is known (app/first-screen.ts). zod runs without JIT (no eval under the
 * Content-Security-Policy). A user who asks the system for reduced motion
 * gets no antd animations (dropdowns, dialogs and collapses open and close at
 * once). Icons do not insert their style sheet each (`zeroRuntime`): antd's
 * ConfigProvider registers the same icon styles once, and each icon's own
 * check scanned every style element of the page at its mount (about 50 ms of
 * an account page's load; issue 23, the suite's time; issue 26).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { IconProvider } from '@ant-design/icons';
import { AuthProvider } from './app/auth/AuthProvider';
import { queryClient } from './app/query-client';
import { CONSOLE_ROUTES, ConsoleRouter } from './app/router';
import { prefetchFirstScreen } from './app/first-screen';
import { ToastProvider } from './app/ToastProvider';
import { consoleTheme } from './app/theme';
import 'antd/dist/antd.css';
import './app/accessibility.css';

// zod (the contracts' defaults, parsed in a few forms) would probe for eval with
// `new Function`; the Content-Security-Policy forbids eval, so the probe is refused
// and reported as a violation. Without JIT zod never probes. This is what zod's
// `config({ jitless: true })` does (zod keeps its settings on this global, shared by
// every copy of zod); set here so that the entry chunk does not carry zod (12 kB) to
// the login page. e2e/security.spec.ts fails if the probe comes back.
(globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig = { jitless: true };

const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

prefetchFirstScreen(queryClient, CONSOLE_ROUTES);

createRoot(root).render(
  <StrictMode>
    <ConfigProvider theme={consoleTheme({ reducedMotion })}>
      <IconProvider value={{ zeroRuntime: true }}>
        <ToastProvider>
          <QueryClientProvider client={queryClient}>
            <AuthProvider>
              <ConsoleRouter />
            </AuthProvider>
          </QueryClientProvider>
        </ToastProvider>
      </IconProvider>
    </ConfigProvider>
  </StrictMode>,
);
