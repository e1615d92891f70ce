/**
 * The two calls of Push Instance Settings (spec 1 §5 "Instance settings push
 * first asks the server to validate; returned issues (each with a description)
 * are listed and the user must confirm", §7, §8):
 *
 * - `POST /software-update/validate` (`{accountId, ...machineConfig}` →
 *   `{issues: [{kind, description}]}`); it changes nothing, so it shows no
 *   toast and reloads nothing; the card reports a failure;
 * - `PUT /accounts/{id}/instance-settings` through the shared section push:
 *   'Instance settings pushed' (2 s), or 'Failed to push instance settings'
 *   listing every server error for 20 s; a 409 is the card's conflict notice.
 */
import { useMutation } from '@tanstack/react-query';
import type {
  TInstanceSettings,
  TPushInstanceSettingsRequest,
  TValidateSoftwareUpdateRequest,
  TValidateSoftwareUpdateResponse,
} from '@fleet/contracts';
import { api } from '../../../../app/api-client';
import { usePushSection, type PushSectionOptions } from '../../shared/use-push-section';

/**
 * The failed push toast, also of a failed validation (spec 1 §8): 'Failed to
 * push instance settings' listing every server error, for 20 s.
 */
export const PUSH_INSTANCE_ERROR = {
  errorText: 'Failed to push instance settings',
  errorSeconds: 20,
  listErrors: 'plain',
} as const satisfies Pick<PushSectionOptions, 'errorText' | 'errorSeconds' | 'listErrors'>;

export function useValidateSoftwareUpdate() {
  return useMutation({
    mutationFn: (body: TValidateSoftwareUpdateRequest) => api.post<TValidateSoftwareUpdateResponse>('software-update/validate', body),
  });
}

export function usePushInstanceSettings(accountId: number) {
  return usePushSection<TPushInstanceSettingsRequest, TInstanceSettings>({
    accountId,
    path: 'instance-settings',
    successText: 'Instance settings pushed',
    ...PUSH_INSTANCE_ERROR,
  });
}
