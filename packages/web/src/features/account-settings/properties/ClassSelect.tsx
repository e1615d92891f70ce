/**
 * The MMA class select of the properties form (spec 1 §4 "Switching class does
 * nothing if unchanged; otherwise it asks confirmation"), bound to `classId`.
 * Choosing the current class does nothing; another class asks 'Change the MMA
 * class from {old} to {new}?' (Yes / No) and only Yes changes the field and
 * calls `onChosen` (where the add-on rules are applied). A form without a class
 * yet takes the choice without asking.
 */
import { Modal, Select } from 'antd';
import { className } from '@fleet/contracts';

export interface ClassSelectProps {
  id?: string;
  value?: number;
  onChange?: (value: number) => void;
  options: { value: number; label: string }[];
  disabled?: boolean;
  /** After the class changed (confirmed). */
  onChosen?: (classId: number) => void;
}

const changeClassText = (from: number, to: number) => `Change the MMA class from ${className(from)} to ${className(to)}?`;

export function ClassSelect({ id, value, onChange, options, disabled, onChosen }: ClassSelectProps) {
  const [modal, holder] = Modal.useModal();

  const apply = (next: number) => {
    onChange?.(next);
    onChosen?.(next);
  };

  const choose = (next: number) => {
    if (next === value) return;
    if (value === undefined) {
      apply(next);
      return;
    }
    void modal.confirm({
      title: 'Change MMA class',
      content: changeClassText(value, next),
      okText: 'Yes',
      cancelText: 'No',
      onOk: () => apply(next),
    });
  };

  return (
    <>
      <Select id={id} value={value} onChange={choose} options={options} disabled={disabled} />
      {holder}
    </>
  );
}
