/**
 * Binding of the pickers to the fields of the surrounding antd Form (values of
 * the `TMachineConfigInput` shape). The fields are registered with hidden
 * Form.Items, so `validateFields`, `resetFields` and `getFieldsValue` see them;
 * the pickers read them with `Form.useWatch` and write them together with
 * `form.setFieldsValue` (a mode and its version always change at once).
 */
import { Form } from 'antd';

/** A hidden holder of one form field (renders nothing). */
function Holder(_props: { value?: unknown; onChange?: unknown }) {
  return null;
}

/** Registers `names` as fields of the surrounding Form without showing anything. */
export function HiddenFields({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((name) => (
        <Form.Item key={name} name={name} hidden noStyle>
          <Holder />
        </Form.Item>
      ))}
    </>
  );
}
