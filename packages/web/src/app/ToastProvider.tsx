/**
 * Provides `useToast()` (see `toast.ts`) with antd's `message` hook. Only the
 * message API is mounted here (not antd `App`), which keeps the dialog and
 * notification code out of the first screen's bundle.
 *
 * The message code itself loads after the first screen has drawn (issue 26:
 * script per route; about 7 KB gzip of the entry): `ToastHolder` is a chunk of
 * its own, asked for once the browser is idle after the first render, or at
 * the first toast if that comes sooner. A toast asked for before it has loaded
 * shows as soon as it has, in order.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { MessageInstance } from 'antd/es/message/interface';
import { TOAST_ERROR_SECONDS, TOAST_SUCCESS_SECONDS, ToastContext, type Toast } from './toast';

const ToastHolder = lazy(() => import('./ToastHolder'));

/** The longest the holder's code waits for an idle moment before it loads anyway, ms. */
const LOAD_AFTER_MS = 2000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const api = useRef<MessageInstance | null>(null);
  /** Toasts asked for before the message API was ready. */
  const waiting = useRef<((api: MessageInstance) => void)[]>([]);
  const [load, setLoad] = useState(false);

  useEffect(() => {
    if (typeof window.requestIdleCallback !== 'function') {
      const timer = window.setTimeout(() => setLoad(true), LOAD_AFTER_MS);
      return () => window.clearTimeout(timer);
    }
    const idle = window.requestIdleCallback(() => setLoad(true), { timeout: LOAD_AFTER_MS });
    return () => window.cancelIdleCallback(idle);
  }, []);

  const onReady = useCallback((ready: MessageInstance) => {
    api.current = ready;
    for (const show of waiting.current.splice(0)) show(ready);
  }, []);

  const toast = useMemo<Toast>(() => {
    const show = (fn: (api: MessageInstance) => void) => {
      if (api.current) return fn(api.current);
      waiting.current.push(fn);
      setLoad(true);
    };
    return {
      success: (text, seconds = TOAST_SUCCESS_SECONDS) => show((m) => void m.success(text, seconds)),
      error: (text, seconds = TOAST_ERROR_SECONDS) => show((m) => void m.error(text, seconds)),
      errorList: (title, lines, seconds = TOAST_ERROR_SECONDS) =>
        show(
          (m) =>
            void m.error(
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
        ),
    };
  }, []);

  return (
    <ToastContext.Provider value={toast}>
      {load && (
        <Suspense fallback={null}>
          <ToastHolder onReady={onReady} />
        </Suspense>
      )}
      {children}
    </ToastContext.Provider>
  );
}
