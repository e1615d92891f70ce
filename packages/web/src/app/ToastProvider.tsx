/**
 * Provides `useToast()` (see `toast.ts`) with antd's `message` hook. Only the
 * message API is mounted here (not antd `App`), which keeps the dialog and
 * notification code out of the first screen's bundle.
 */
import { useMemo, type ReactNode } from 'react';
import { message } from 'antd';
import { TOAST_ERROR_SECONDS, TOAST_SUCCESS_SECONDS, ToastContext, type Toast } from './toast';

export function ToastProvider({ children }: { children: ReactNode }) {
  const [messageApi, holder] = message.useMessage();
  const toast = useMemo<Toast>(
    () => ({
      success: (text, seconds = TOAST_SUCCESS_SECONDS) => void messageApi.success(text, seconds),
      error: (text, seconds = TOAST_ERROR_SECONDS) => void messageApi.error(text, seconds),
      errorList: (title, lines, seconds = TOAST_ERROR_SECONDS) =>
        void messageApi.error(
          <span role="alert" aria-label={title}>
            <strong>{title}</strong>
            {lines.length > 0 && (
              <ul style={{ margin: '4px 0 0', paddingInlineStart: 20, textAlign: 'left' }}>
                {lines.map((line, i) => (
                  <li key={i}>{line}</li>
                ))}
              </ul>
            )}
          </span>,
          seconds,
        ),
    }),
    [messageApi],
  );
  return (
    <ToastContext.Provider value={toast}>
      {holder}
      {children}
    </ToastContext.Provider>
  );
}
