/**
 * Reinstall Sample Data (spec 2 §2.3, §5, §8, §9): the sample data choice None,
 * Default or Select (a file of `GET /sample-data-files`), starting at the
 * machine's own. Submit asks 'This operation will reset Site Master data on
 * this machine. Are you sure to continue?', then
 * `PATCH /accounts/{id}/machines/{machineId}` `{sampleData, sampleDataFile}`
 * (the server queues ReinstallSampleData): 'Sample data has been updated for
 * this machine' / 'Error occurred updating sample data for machine'.
 */
import { useState } from 'react';
import { Form, Modal, Radio, Select } from 'antd';
import { SAMPLE_DATA_CHOICES } from '@fleet/contracts';
import { useSampleDataFileList } from '../../operations/api/queries';
import { useReinstallSampleData } from '../api/operation-mutations';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

export const REINSTALL_SAMPLE_DATA_CONFIRM = 'This operation will reset Site Master data on this machine. Are you sure to continue?';

type Choice = (typeof SAMPLE_DATA_CHOICES)[number];

export function ReinstallSampleDataDialog({ machine, onClose }: MachineDialogProps) {
  const [modal, modalHolder] = Modal.useModal();
  const reinstall = useReinstallSampleData();
  const [choice, setChoice] = useState<Choice>(machine.sampleData);
  const [file, setFile] = useState<string | undefined>(machine.sampleDataFile ?? undefined);
  const files = useSampleDataFileList(choice === 'Select');
  const ready = choice !== 'Select' || file !== undefined;

  const submit = () => {
    if (!ready) return;
    void modal.confirm({
      title: 'Reinstall Sample Data',
      content: REINSTALL_SAMPLE_DATA_CONFIRM,
      okText: 'Continue',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () =>
        reinstall
          .mutateAsync({ machine, body: { sampleData: choice, sampleDataFile: choice === 'Select' ? (file ?? null) : null } })
          .then(onClose, () => undefined),
    });
  };

  return (
    <OperationDialog title="Reinstall Sample Data" machine={machine} disabled={!ready} loading={reinstall.isPending} onOk={submit} onClose={onClose}>
      <Form layout="vertical">
        <Form.Item label="Sample data">
          <Radio.Group aria-label="Sample data" value={choice} onChange={(e) => setChoice(e.target.value as Choice)} options={[...SAMPLE_DATA_CHOICES]} />
        </Form.Item>
        {choice === 'Select' && (
          <Form.Item label="Sample data file" htmlFor="reinstall-sample-data-file" style={{ marginBottom: 0 }}>
            <Select
              id="reinstall-sample-data-file"
              value={file}
              onChange={setFile}
              loading={files.isLoading}
              placeholder="Choose a file"
              showSearch={{ optionFilterProp: 'label' }}
              options={(files.data ?? []).map((f) => ({ value: f.name, label: f.name }))}
            />
          </Form.Item>
        )}
      </Form>
      {modalHolder}
    </OperationDialog>
  );
}
