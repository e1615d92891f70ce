/**
 * Switch MMA class (spec 2 §2.3, §4, §5, §8): choose the class whose MMA
 * instance manages the machine (every class but the add-on class; Customer
 * Production only for members of CustomerProductionAccess, as the server
 * demands). Submit with the current class closes the dialog and does nothing
 * (spec 2 §4); another class asks for confirmation (`switchClassConfirmText`),
 * then `PATCH /accounts/{id}/machines/{machineId}` with `classId` ('Machine has
 * been updated' / 'Error occurred updating machine'). The dialog closes on
 * success and stays open on error.
 */
import { useState } from 'react';
import { Form, Modal, Select, Typography } from 'antd';
import { CLASS_ADD_ON, CLASS_CUSTOMER_PRODUCTION, className, type TMachine } from '@fleet/contracts';
import { useAuth } from '../../../app/auth/auth-context';
import { selectableClasses } from '../../accounts/use-account-list-params';
import { useSwitchMachineClass } from '../api/mutations';

export const SWITCH_CLASS_TITLE = 'Switch MMA class';
export const switchClassConfirmText = (machine: string, from: string, to: string) =>
  `Switch machine ${machine} from MMA class ${from} to ${to}? The MMA instance of ${to} will manage it from now on.`;

interface Props {
  machine: TMachine;
  onClose(): void;
}

/** Mounted per opening (the parent renders it only while open), so the choice starts at the current class. */
export function SwitchClassDialog({ machine, onClose }: Props) {
  const { hasCustomerProductionAccess } = useAuth();
  const [modal, modalHolder] = Modal.useModal();
  const switchClass = useSwitchMachineClass();
  const [classId, setClassId] = useState(machine.classId);
  // A machine already in Customer Production keeps its class on offer.
  const options = selectableClasses(hasCustomerProductionAccess || machine.classId === CLASS_CUSTOMER_PRODUCTION)
    .filter((c) => c.id !== CLASS_ADD_ON)
    .map((c) => ({ value: c.id, label: c.name }));

  const submit = () => {
    if (classId === machine.classId) {
      onClose();
      return;
    }
    void modal.confirm({
      title: SWITCH_CLASS_TITLE,
      content: switchClassConfirmText(machine.name, machine.class.name, className(classId)),
      okText: 'Switch',
      cancelText: 'Cancel',
      // The toast reports a failure; the confirmation closes either way, the dialog only on success.
      onOk: () => switchClass.mutateAsync({ machine, classId }).then(onClose, () => undefined),
    });
  };

  return (
    <Modal
      open
      title={SWITCH_CLASS_TITLE}
      okText="Submit"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ loading: switchClass.isPending }}
      destroyOnHidden
    >
      <Typography.Paragraph>
        Machine <Typography.Text strong>{machine.name}</Typography.Text> is in MMA class <Typography.Text strong>{machine.class.name}</Typography.Text>.
      </Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label="MMA class" htmlFor="switch-machine-class" style={{ marginBottom: 0 }}>
          <Select id="switch-machine-class" value={classId} onChange={setClassId} options={options} />
        </Form.Item>
      </Form>
      {modalHolder}
    </Modal>
  );
}
