/**
 * Manage Templates dialog (spec 1 §2 Manage Templates dialog, §3 Template, §5
 * Templates, §8 toasts, §9 page size 7), opened from the footers of Edit account
 * and Create account.
 *
 * One tab per kind: General (the Account Properties form), License Settings,
 * Instance Settings and Backup Settings (their cards' forms); an add-on account
 * (class 200) has no instance or backup section, so no such tabs. Each tab is a
 * {@link TemplateKindPanel}: create from the form's current values, search,
 * version-only, Template/Account filter, select (load into the form), save and
 * delete. Write actions need permission write (spec 1 §6); without it the
 * dialog only lists and loads.
 *
 * Props: `forms` are the page's section forms (`useSectionForms`); values are
 * read with `getFieldsValue(true)` and loaded with `setFieldsValue`.
 * `existingAccount` (Edit account) keeps the fields the server locks (see
 * `template-values.ts`).
 */
import { useState } from 'react';
import { Button, Modal, Tabs } from 'antd';
import type { TTemplateType } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import type { SectionForms } from '../account-settings/shared/section-forms';
import { TemplateKindPanel } from './TemplateKindPanel';
import { KIND_LABELS, KIND_SECTION, kindsForClass } from './template-values';

export interface ManageTemplatesDialogProps {
  open: boolean;
  onClose(): void;
  forms: SectionForms;
  /** Class of the account being edited or created; class 200 (add-on) hides the instance and backup kinds. */
  accountClassId?: number;
  /** True on Edit account: the account exists, so locked instance fields and the add-on class are not loaded. */
  existingAccount?: boolean;
}

export function ManageTemplatesDialog({ open, onClose, forms, accountClassId, existingAccount = false }: ManageTemplatesDialogProps) {
  const { canWrite } = useAuth();
  const [kind, setKind] = useState<TTemplateType>('general');
  const kinds = kindsForClass(accountClassId);
  const activeKind = kinds.includes(kind) ? kind : 'general';

  return (
    <Modal
      open={open}
      title="Manage Templates"
      width={1000}
      onCancel={onClose}
      destroyOnHidden
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <Tabs
        activeKey={activeKind}
        onChange={(key) => setKind(key as TTemplateType)}
        destroyOnHidden
        items={kinds.map((k) => ({
          key: k,
          label: KIND_LABELS[k],
          children: (
            <TemplateKindPanel kind={k} form={forms[KIND_SECTION[k]]} canWrite={canWrite} loadOptions={{ existingAccount, accountClassId }} />
          ),
        }))}
      />
    </Modal>
  );
}
