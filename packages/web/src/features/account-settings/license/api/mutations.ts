/**
 * Download License of the License Settings card (spec 1 §2 "Download License
 * (saved as '{account urlFriendlyName} license.dat')", §7
 * `GET /accounts/{id}/files/license`, §8 'Error occurred downloading license').
 *
 * The file is fetched with the bearer token (`api.file`) and handed to the
 * browser under the name the server gives it ('{urlFriendlyName} license.dat'),
 * else that name of the account as loaded. A success shows no toast: the
 * browser's download is the feedback. The push is the shared `usePushSection`.
 */
import { useMutation } from '@tanstack/react-query';
import type { TAccountDetail } from '@fleet/contracts';
import { useToast } from '../../../../app/toast';
import { api } from '../../../../app/api-client';
import { saveBlob } from '../../../../lib/download';

const DOWNLOAD_LICENSE_ERROR = 'Error occurred downloading license';

/** The file name of an account's license (spec 1 §2). */
const licenseFileName = (urlFriendlyName: string) => `${urlFriendlyName} license.dat`;

/** Download License: fetches the account's license file and offers it to the browser; the error toast on failure. */
export function useDownloadLicense(account: Pick<TAccountDetail, 'id' | 'urlFriendlyName'>) {
  const toast = useToast();
  return useMutation({
    mutationFn: async () => saveBlob(await api.file(`accounts/${account.id}/files/license`, licenseFileName(account.urlFriendlyName))),
    onError: () => toast.error(DOWNLOAD_LICENSE_ERROR),
  });
}
