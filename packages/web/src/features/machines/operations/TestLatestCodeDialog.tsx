/**
 * Test Latest Code (spec 2 §2.3, §5, §8): choose a branch (default master) from
 * `GET /software/branches`; branches whose repository is missing are disabled
 * and labelled Missing. Submits `POST /machines/{id}/test-latest-code`
 * `{branch}` ('Testing started for machine' / the server's message, else
 * 'Error occurred starting testing for machine').
 */
import { useState } from 'react';
import { Form, Select, Tag } from 'antd';
import { DEFAULT_TEST_BRANCH } from '@fleet/contracts';
import { useBranches } from '../../software-versions/api/queries';
import { useTestLatestCode } from '../api/operation-mutations';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

export function TestLatestCodeDialog({ machine, onClose }: MachineDialogProps) {
  const branches = useBranches();
  const test = useTestLatestCode();
  const [branch, setBranch] = useState<string>(DEFAULT_TEST_BRANCH);
  const chosenMissing = branches.data?.find((b) => b.name === branch)?.repoMissing ?? false;
  const submit = () => test.mutate({ machine, body: { branch } }, { onSuccess: onClose });

  return (
    <OperationDialog title="Test Latest Code" machine={machine} disabled={!branch || chosenMissing} loading={test.isPending} onOk={submit} onClose={onClose}>
      <Form layout="vertical">
        <Form.Item label="Branch" htmlFor="test-latest-code-branch" style={{ marginBottom: 0 }}>
          <Select
            id="test-latest-code-branch"
            value={branch}
            onChange={setBranch}
            loading={branches.isLoading}
            showSearch={{ optionFilterProp: 'title' }}
            options={(branches.data ?? []).map((b) => ({
              value: b.name,
              title: b.name,
              disabled: b.repoMissing,
              label: b.repoMissing ? (
                <span>
                  {b.name} <Tag>Missing</Tag>
                </span>
              ) : (
                b.name
              ),
            }))}
          />
        </Form.Item>
      </Form>
    </OperationDialog>
  );
}
