/**
 * Pushing one settings section of an account (spec 1 §2 cards, §7 Accounts, §8;
 * DESIGN §5 section versions). Every card of the edit screen pushes through this
 * hook, so the toasts, the error lists and the conflict handling are the same
 * everywhere:
 *
 * - success: the section's success toast (2 s), then the account detail reloads
 *   (`GET /accounts/{id}`), which carries the new section version;
 * - 409 (someone pushed the section after it was loaded): no toast; `conflict`
 *   holds the server's detail (who pushed, when, which versions) until the user
 *   reloads (`reload()`, which resolves to the reloaded account) or pushes
 *   again. Show it with `<SectionConflict>`.
 *   A 409 that names fields (a duplicate URL name) is not a stale version: it
 *   is handled like a 400, and the caller shows its errors on the fields;
 * - 400: the error toast, or with `listErrors` a toast listing every field error
 *   (`errorMessage` and, with `'attempted'`, its `attemptedValue`) for
 *   `errorSeconds`;
 * - anything else: the error toast with the spec's text.
 *
 * `path` is relative to the account: `''` for `PUT /accounts/{id}`,
 * `'license-settings'` for `PUT /accounts/{id}/license-settings`, etc.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAccountDetail, TFieldError } from '@fleet/contracts';
import { ApiError, api } from '../../../app/api-client';
import { useToast, type Toast } from '../../../app/toast';
import { accountKeys } from '../../accounts/api/keys';
import { accountEditKeys } from '../../account-edit/api/keys';

export interface PushSectionOptions {
  accountId: number;
  /** Path under `accounts/{id}`: '' (properties), 'license-settings', 'instance-settings', 'backup-settings', 'idle-schedule'. */
  path: string;
  /** Success toast, e.g. 'License settings pushed'. */
  successText: string;
  /** Error toast (or the title of the error list), e.g. 'Error occurred pushing license settings'. */
  errorText: string;
  /** Error toast duration, seconds (default: the toast default, 5 s). */
  errorSeconds?: number;
  /** List every field error of a 400 under the title: 'plain' (message) or 'attempted' (message: attempted value). */
  listErrors?: 'plain' | 'attempted';
}

/** One line of an error list: the message, with the attempted value when asked for. */
export function fieldErrorLine(error: TFieldError, withAttempted: boolean): string {
  if (!withAttempted || error.attemptedValue === undefined) return error.errorMessage;
  const value = typeof error.attemptedValue === 'string' ? error.attemptedValue : JSON.stringify(error.attemptedValue);
  return `${error.errorMessage}: ${value}`;
}

/**
 * The toast of a failed push that is not a stale version: with `listErrors`, a
 * 400's field errors listed under `errorText`; otherwise `errorText` alone.
 */
export function reportPushError(
  toast: Toast,
  error: unknown,
  { errorText, errorSeconds, listErrors }: Pick<PushSectionOptions, 'errorText' | 'errorSeconds' | 'listErrors'>,
): void {
  if (listErrors && error instanceof ApiError && error.errors.length > 0) {
    toast.errorList(
      errorText,
      error.errors.map((e) => fieldErrorLine(e, listErrors === 'attempted')),
      errorSeconds,
    );
    return;
  }
  toast.error(errorText, errorSeconds);
}

export function usePushSection<TBody, TResponse>(opts: PushSectionOptions) {
  const { accountId, path, successText, errorText, errorSeconds, listErrors } = opts;
  const queryClient = useQueryClient();
  const toast = useToast();
  const [conflict, setConflict] = useState<string>();
  const url = path ? `accounts/${accountId}/${path}` : `accounts/${accountId}`;

  const mutation = useMutation({
    mutationFn: (body: TBody) => api.put<TResponse>(url, body),
    onMutate: () => setConflict(undefined),
    onSuccess: async () => {
      toast.success(successText);
      // The list shows names and classes; the detail carries the new version.
      await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409 && error.errors.length === 0) {
        setConflict(error.detail ?? error.title);
        return;
      }
      reportPushError(toast, error, { errorText, errorSeconds, listErrors });
    },
  });

  /** Reload the account (and so the section's values and version) after a conflict; resolves to the reloaded account. */
  const reload = async (): Promise<TAccountDetail | undefined> => {
    await queryClient.invalidateQueries({ queryKey: accountEditKeys.detail(accountId) });
    setConflict(undefined);
    return queryClient.getQueryData<TAccountDetail>(accountEditKeys.detail(accountId));
  };

  return { ...mutation, conflict, reload };
}
