/**
 * Credential (spec 2 §2.3, §3 Credential, §8, §9): the machine's credential from
 * `GET /machines/{id}/credential` (write permission; the server audits every
 * read, so the dialog reads it once per opening and keeps no copy after closing).
 *
 * - rdpPassword: masked, with a reveal toggle and a copy button.
 * - sshPrivateKey: downloaded as a file named `id_rsa` (error toast 'Error
 *   occurred downloading SSH Private Key').
 * - The machine's configs (`{componentConfig, deployerConfig}` of spec 2 §3
 *   Machine) download as `config.json`, with or without a credential.
 * - No credential (404): a warning alert 'Credentials not found'. Other
 *   failures: an error alert with the server's detail.
 */
import { Alert, Button, Descriptions, Flex, Input, Modal, Spin, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { TMachine } from '@fleet/contracts';
import { ApiError, errorText } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { useMachineCredential } from '../api/queries';
import { saveBlob } from '../../../lib/download';

export const CREDENTIALS_NOT_FOUND = 'Credentials not found';
export const SSH_KEY_FILE = 'id_rsa';
export const CONFIG_FILE = 'config.json';

interface Props {
  machine: TMachine;
  onClose(): void;
}

export function CredentialDialog({ machine, onClose }: Props) {
  const credential = useMachineCredential(machine.id);
  const toast = useToast();
  const missing = credential.error instanceof ApiError && credential.error.status === 404;

  const downloadKey = (key: string) => {
    try {
      saveBlob({ fileName: SSH_KEY_FILE, blob: new Blob([key.endsWith('\n') ? key : `${key}\n`], { type: 'application/octet-stream' }) });
    } catch {
      toast.error('Error occurred downloading SSH Private Key');
    }
  };
  const downloadConfig = () => {
    const { componentConfig, deployerConfig } = machine.config;
    saveBlob({ fileName: CONFIG_FILE, blob: new Blob([`${JSON.stringify({ componentConfig, deployerConfig }, null, 2)}\n`], { type: 'application/json' }) });
  };

  return (
    <Modal
      open
      width={620}
      title={`Credential: ${machine.name}`}
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
      destroyOnHidden
    >
      <Flex vertical gap={16}>
        {credential.isLoading && <Spin style={{ display: 'block', padding: 24 }} />}
        {missing && (
          <Alert
            type="warning"
            showIcon
            title={CREDENTIALS_NOT_FOUND}
            description={`Machine ${machine.name} has no credential yet: one is issued when its cloud instance is launched.`}
          />
        )}
        {credential.isError && !missing && (
          <Alert type="error" showIcon title="The credential could not be loaded" description={errorText(credential.error, 'Please try again.')} />
        )}
        {credential.data && (
          <Descriptions bordered size="small" column={1} styles={{ label: { width: 160 } }}>
            <Descriptions.Item label="RDP password">
              <Flex gap={8} align="center">
                <Input.Password readOnly value={credential.data.rdpPassword} aria-label="RDP password" style={{ flex: 1 }} />
                <Typography.Text copyable={{ text: credential.data.rdpPassword, tooltips: ['Copy RDP password', 'Copied'] }} />
              </Flex>
            </Descriptions.Item>
            <Descriptions.Item label="SSH private key">
              <Button icon={<DownloadOutlined aria-hidden />} onClick={() => downloadKey(credential.data.sshPrivateKey)}>
                Download {SSH_KEY_FILE}
              </Button>
            </Descriptions.Item>
          </Descriptions>
        )}
        <Descriptions bordered size="small" column={1} styles={{ label: { width: 160 } }}>
          <Descriptions.Item label="Configs">
            <Button icon={<DownloadOutlined aria-hidden />} onClick={downloadConfig}>
              Download {CONFIG_FILE}
            </Button>
          </Descriptions.Item>
        </Descriptions>
      </Flex>
    </Modal>
  );
}
