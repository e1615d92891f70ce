/**
 * The maintainer of an account (spec 1 §2 "maintainer (DevOps, Contact or
 * Custom)", §9 default the DevOps group address), bound to the `maintainer`
 * field (an address) of the properties form:
 *
 * - DevOps stores the DevOps group address (`DEVOPS_EMAIL`);
 * - Contact stores the contact's email and follows it while it is edited;
 * - Custom shows an input for any other address.
 *
 * The choice shown is derived from the stored address (`maintainerMode`), so a
 * reload or a template shows the right one; choosing Custom keeps the current
 * address until the user types another.
 */
import { useEffect, useRef, useState } from 'react';
import { Flex, Form, Input, Radio, Typography } from 'antd';
import { DEVOPS_EMAIL } from '@fleet/contracts';
import { MAINTAINER_MODES, maintainerMode, type MaintainerMode } from './properties-rules';

export interface MaintainerInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
}

export function MaintainerInput({ id, value = '', onChange, disabled }: MaintainerInputProps) {
  const form = Form.useFormInstance();
  const contactEmail = (Form.useWatch(['contact', 'email'], form) as string | undefined) ?? '';
  // The address at the moment Custom was chosen: while it is unchanged, Custom stays shown.
  const [customOf, setCustomOf] = useState<string>();
  const mode: MaintainerMode = customOf !== undefined && customOf === value ? 'Custom' : maintainerMode(value, contactEmail);

  // Contact follows the contact's email while it is edited.
  const previousEmail = useRef(contactEmail);
  useEffect(() => {
    const previous = previousEmail.current;
    previousEmail.current = contactEmail;
    if (previous && previous !== contactEmail && value === previous && customOf !== value) onChange?.(contactEmail);
  }, [contactEmail, value, customOf, onChange]);

  const choose = (next: MaintainerMode) => {
    setCustomOf(next === 'Custom' ? value : undefined);
    if (next === 'DevOps') onChange?.(DEVOPS_EMAIL);
    if (next === 'Contact') onChange?.(contactEmail);
  };

  return (
    <Flex vertical gap={8}>
      <Radio.Group
        id={id}
        optionType="button"
        value={mode}
        disabled={disabled}
        onChange={(e) => choose(e.target.value as MaintainerMode)}
        options={MAINTAINER_MODES.map((m) => ({ value: m, label: m, disabled: m === 'Contact' && !contactEmail }))}
      />
      {mode === 'Custom' ? (
        <Input
          aria-label="Custom maintainer"
          placeholder="maintainer@example.com"
          value={value}
          maxLength={254}
          disabled={disabled}
          onChange={(e) => onChange?.(e.target.value)}
        />
      ) : (
        <Typography.Text type="secondary">{mode === 'DevOps' ? DEVOPS_EMAIL : contactEmail}</Typography.Text>
      )}
    </Flex>
  );
}
