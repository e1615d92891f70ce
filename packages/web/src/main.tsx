/**
 * Entry of the console (DESIGN §10): antd theme, toasts, the query client, the
 * session, then the hash router. A user who asks the system for reduced motion
 * gets no antd animations (dropdowns, dialogs and collapses open and close at
 * once).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { AuthProvider } from './app/auth/AuthProvider';
import { queryClient } from './app/query-client';
import { router } from './app/router';
import { ToastProvider } from './app/ToastProvider';

const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <ConfigProvider theme={{ token: { motion: !reducedMotion } }}>
      <ToastProvider>
        <QueryClientProvider client={queryClient}>
          <AuthProvider>
            <RouterProvider router={router} />
          </AuthProvider>
        </QueryClientProvider>
      </ToastProvider>
    </ConfigProvider>
  </StrictMode>,
);
