/**
 * The gate of the Instance Settings card of a new account (spec 1 §2 "For a new
 * account: template picker with Customize and Start from scratch ... The
 * settings are usable only after choosing a template or Custom"; §4 "Template
 * picking: Customize or Start from scratch enables the form"): a slot for the
 * template picker (the templates feature fills it), and the buttons Customize
 * (keep the values the form holds, e.g. a chosen template's) and Start from
 * scratch (the defaults of spec 1 §9, see `instanceDefaults`). While closed, a
 * note says what to do. The page keeps the open state and passes
 * `disabled={!open}` to `InstanceFields`:
 *
 * ```tsx
 * const [open, setOpen] = useState(false);
 * <InstanceTemplateGate open={open} templatePicker={picker}
 *   onCustomize={() => setOpen(true)}
 *   onStartFromScratch={() => { loadInstanceDefaults(form); setOpen(true); }} />
 * <InstanceFields mode="create" disabled={!open} />
 * ```
 */
import type { ReactNode } from 'react';
import { Alert, Button, Flex } from 'antd';
import { EditOutlined, FileAddOutlined } from '@ant-design/icons';
import type { FormInstance } from 'antd';
import type { TMachineConfigInput } from '@fleet/contracts';
import { SCHEMA_VALUES } from '../../../lib/schema-values';
import { loadSection } from '../shared/use-section-values';

export interface InstanceTemplateGateProps {
  /** True once a template was chosen or Customize / Start from scratch clicked. */
  open: boolean;
  onCustomize(): void;
  onStartFromScratch(): void;
  /** The instance-settings template picker. */
  templatePicker?: ReactNode;
  disabled?: boolean;
}

const GATE_NOTE = 'Choose a template, Customize or Start from scratch to edit the instance settings.';

/** The instance settings of a new account with nothing chosen (spec 1 §9 machine defaults). */
function instanceDefaults(): TMachineConfigInput {
  return structuredClone(SCHEMA_VALUES.machineConfigDefaults);
}

/** Replaces the form's values by the defaults (Start from scratch). */
export function loadInstanceDefaults(form: FormInstance): void {
  loadSection(form, instanceDefaults());
}

export function InstanceTemplateGate({ open, onCustomize, onStartFromScratch, templatePicker, disabled }: InstanceTemplateGateProps) {
  return (
    <Flex vertical gap={8} style={{ marginBottom: 16 }}>
      <Flex gap={8} wrap align="center" role="group" aria-label="Instance settings template">
        {templatePicker}
        <Button icon={<EditOutlined aria-hidden />} onClick={onCustomize} disabled={disabled}>
          Customize
        </Button>
        <Button icon={<FileAddOutlined aria-hidden />} onClick={onStartFromScratch} disabled={disabled}>
          Start from scratch
        </Button>
      </Flex>
      {!open && <Alert type="info" showIcon title={GATE_NOTE} />}
    </Flex>
  );
}
