/**
 * Download Keys and Download CAA Key, the key buttons of the Instance Settings
 * card (spec 1 §2 "Buttons: Push Instance Settings, Download Keys, Download CAA
 * Key (the last two not for add-on accounts)", §7 blob downloads, §8).
 *
 * - Download Keys: `GET /accounts/{id}/files/keys`, a zip saved as the server
 *   names it ('{urlFriendlyName} keys.zip').
 * - Download CAA Key: `GET /accounts/{id}/files/caa-key`, a text file
 *   ('{urlFriendlyName} caa-account.txt').
 * - Either failing shows the error toast 'Error occurred downloading license
 *   keys' (spec 1 §8: one message for the keys zip and the CAA key). A success
 *   shows no toast: the browser's download is the feedback.
 * - Renders nothing for an add-on account (class 200), which has no keys (the
 *   server answers 422).
 * - The downloads reveal private keys, so the server needs permission write
 *   (DESIGN §5 secrets, 403 otherwise): without it the buttons are disabled.
 */
import type { JSX } from 'react';
import { Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { accountKeyFileName, CLASS_ADD_ON, type TAccountDetail } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { useToast } from '../../app/toast';
import { api } from '../../app/api-client';
import { saveBlob } from '../../lib/download';

/** The spec's error toast for both key downloads (spec 1 §8). */
export const DOWNLOAD_KEYS_ERROR = 'Error occurred downloading license keys';

type KeyFile = 'keys' | 'caa-key';

/** The two key buttons for the Instance Settings card footer; an empty fragment for add-on accounts. */
export function DownloadKeysButtons(props: { account: TAccountDetail }): JSX.Element {
  const { account } = props;
  const toast = useToast();
  const { canWrite } = useAuth();
  const download = useMutation({
    mutationFn: async (file: KeyFile) =>
      saveBlob(await api.file(`accounts/${account.id}/files/${file}`, accountKeyFileName(file, account.urlFriendlyName))),
    onError: () => toast.error(DOWNLOAD_KEYS_ERROR),
  });

  if (account.classId === CLASS_ADD_ON) return <></>;
  const busy = (file: KeyFile) => download.isPending && download.variables === file;
  const disabled = !canWrite || download.isPending;
  const title = canWrite ? undefined : 'Needs the write permission';
  return (
    <>
      <Button icon={<DownloadOutlined />} loading={busy('keys')} disabled={disabled} title={title} onClick={() => download.mutate('keys')}>
        Download Keys
      </Button>
      <Button icon={<DownloadOutlined />} loading={busy('caa-key')} disabled={disabled} title={title} onClick={() => download.mutate('caa-key')}>
        Download CAA Key
      </Button>
    </>
  );
}
