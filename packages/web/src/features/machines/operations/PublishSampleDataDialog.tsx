/**
 * Publish as Sample Data (spec 2 §2.3, §8): a file name (required), then
 * `POST /machines/{id}/publish-sample-data` `{fileName}` ('Sample data
 * publishing has been started for this machine' / 'Error occurred publishing
 * sample data').
 */
import { Form, Input } from 'antd';
import { usePublishSampleData } from '../api/operation-mutations';
import { OperationDialog, type MachineDialogProps } from './OperationDialog';

export function PublishSampleDataDialog({ machine, onClose }: MachineDialogProps) {
  const publish = usePublishSampleData();
  const [form] = Form.useForm<{ fileName: string }>();
  const submit = async () => {
    const { fileName } = await form.validateFields().catch(() => ({ fileName: undefined }));
    if (fileName) publish.mutate({ machine, body: { fileName: fileName.trim() } }, { onSuccess: onClose });
  };

  return (
    <OperationDialog title="Publish as Sample Data" machine={machine} loading={publish.isPending} onOk={() => void submit()} onClose={onClose}>
      <Form form={form} layout="vertical" validateTrigger="onBlur" onFinish={() => void submit()}>
        <Form.Item
          name="fileName"
          label="File name"
          rules={[{ required: true, whitespace: true, message: 'File name is required' }, { max: 200 }]}
          style={{ marginBottom: 0 }}
        >
          <Input autoFocus />
        </Form.Item>
      </Form>
    </OperationDialog>
  );
}
