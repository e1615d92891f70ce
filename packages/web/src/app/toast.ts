/**
 * Toasts of the console (spec 1 §8, spec 2 §8): success toasts last 2 s and
 * error toasts 5 s unless a screen says otherwise. `ToastProvider` supplies them
 * through antd's message hook, so toasts follow the theme.
 */
import { createContext, useContext, type ReactNode } from 'react';

/** Success toast duration, seconds. */
export const TOAST_SUCCESS_SECONDS = 2;
/** Error toast duration, seconds. */
export const TOAST_ERROR_SECONDS = 5;

export interface Toast {
  /** `text` may carry a link (a plain `<a href="#/…">`: toasts live outside the router); hovering keeps the toast open. */
  success(text: ReactNode, seconds?: number): void;
  error(text: string, seconds?: number): void;
  /** An error toast with a title and one line per item (spec 1 §8 error lists). */
  errorList(title: string, lines: readonly string[], seconds?: number): void;
}

export const ToastContext = createContext<Toast | null>(null);

/** Success and error toasts with the specification's default durations. */
export function useToast(): Toast {
  const toast = useContext(ToastContext);
  if (!toast) throw new Error('useToast must be used under <ToastProvider>');
  return toast;
}
