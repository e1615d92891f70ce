/**
 * Force Populate (spec 2 §2.3, §5, §8): ticks for Launcher and SiteMaster and an
 * alt string that keeps only letters and digits as it is typed. Nothing happens
 * unless one of the ticks is set (Submit stays disabled). Submits
 * `POST /machines/{id}/force-populate` ('Populate has been forced for this
 * machine' / 'Error occurred forcing populate for machine').
 */
import { useState } from 'react';
import { Checkbox, Flex, Form, Input, Typography } from 'antd';
import { ALT_STRING_MAX, cleanAltString } from '../../operations/operation-rules';
import { useForcePopulate } from '../api/operation-mutations';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

export function ForcePopulateDialog({ machine, onClose }: MachineDialogProps) {
  const populate = useForcePopulate();
  const [launcher, setLauncher] = useState(false);
  const [siteMaster, setSiteMaster] = useState(false);
  const [altString, setAltString] = useState('');
  const ticked = launcher || siteMaster;

  const submit = () => {
    if (!ticked) return;
    populate.mutate({ machine, body: { populateLauncher: launcher, populateSiteMaster: siteMaster, altString } }, { onSuccess: onClose });
  };

  return (
    <OperationDialog title="Force Populate" machine={machine} disabled={!ticked} loading={populate.isPending} onOk={submit} onClose={onClose}>
      <Form layout="vertical">
        <Form.Item label="Populate" extra={ticked ? undefined : 'Tick Launcher or SiteMaster'}>
          <Flex gap={16}>
            <Checkbox checked={launcher} onChange={(e) => setLauncher(e.target.checked)}>
              Launcher
            </Checkbox>
            <Checkbox checked={siteMaster} onChange={(e) => setSiteMaster(e.target.checked)}>
              SiteMaster
            </Checkbox>
          </Flex>
        </Form.Item>
        <Form.Item label="Alt string" htmlFor="force-populate-alt" extra={<Typography.Text type="secondary">Letters and digits only</Typography.Text>} style={{ marginBottom: 0 }}>
          <Input id="force-populate-alt" value={altString} maxLength={ALT_STRING_MAX} onChange={(e) => setAltString(cleanAltString(e.target.value))} />
        </Form.Item>
      </Form>
    </OperationDialog>
  );
}
