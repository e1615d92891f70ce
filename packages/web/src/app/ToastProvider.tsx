/**
 * Provides `useToast()` (see `toast.ts`) with antd's `message` hook. Only the
 * message API is mounted here (not antd `App`), which keeps the dialog and
 * notification code out of the first screen's bundle.
 *
 * The message code itself is not part of the first screen (issue 26: script
 * per route; about 7 KB gzip): `ToastHolder` is a chunk of its own, loaded at
 * the first toast; the signed-in shell fetches it ahead once the browser is
 * idle ({@link preloadToasts}), so the login page never loads it unless it has
 * something to say. A toast asked for before it has loaded shows as soon as it
 * has, in order. Should its code fail to load (its file gone with a new
 * deploy), the toasts are dropped and the failure logged; the console goes on.
 */
import { Component, lazy, Suspense, useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import type { MessageInstance } from 'antd/es/message/interface';
import { TOAST_ERROR_SECONDS, TOAST_SUCCESS_SECONDS, ToastContext, type Toast } from './toast';

const loadToastHolder = () => import('./ToastHolder');
const ToastHolder = lazy(loadToastHolder);

/** Fetches the toasts' code ahead (the signed-in shell, when the browser is idle), so that its first toast shows at once. */
export function preloadToasts(): void {
  // A failure shows at the first toast (HolderLoad).
  loadToastHolder().catch(() => undefined);
}

/** Catches a failed load of the toasts' code, so that it does not take the console down with it. */
class HolderLoad extends Component<{ children: ReactNode; onFailed(error: unknown): void }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    this.props.onFailed(error);
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const api = useRef<MessageInstance | null>(null);
  /** Toasts asked for before the message API was ready. */
  const waiting = useRef<((api: MessageInstance) => void)[]>([]);
  /** The toasts' code failed to load: later toasts are dropped too. */
  const failed = useRef(false);
  const [load, setLoad] = useState(false);

  const onReady = useCallback((ready: MessageInstance) => {
    api.current = ready;
    for (const show of waiting.current.splice(0)) show(ready);
  }, []);

  const onFailed = useCallback((error: unknown) => {
    failed.current = true;
    const dropped = waiting.current.splice(0).length;
    console.error(`The toasts' code did not load; ${dropped} toast(s) not shown`, error);
  }, []);

  const toast = useMemo<Toast>(() => {
    const show = (fn: (api: MessageInstance) => void) => {
      if (api.current) return fn(api.current);
      if (failed.current) return;
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
        <HolderLoad onFailed={onFailed}>
          <Suspense fallback={null}>
            <ToastHolder onReady={onReady} />
          </Suspense>
        </HolderLoad>
      )}
      {children}
    </ToastContext.Provider>
  );
}
