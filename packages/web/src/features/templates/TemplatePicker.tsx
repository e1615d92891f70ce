/**
 * Template picker of a settings card's header (spec 1 §2 License Settings card
 * "Template picker", Instance Settings card; §4 Template picking; §8 'Template
 * loaded'): a searchable select of the templates of one kind, then the template
 * accounts, that loads the chosen one into `form` and calls `onPicked` (a card
 * of the Create account page enables its fields then, spec 1 §4).
 *
 * The select sits in a collapsible header, so clicks on it do not fold the card.
 * A list that fails to load is an empty select (spec 1 §8: silent). Without
 * permission write the picker is not shown: such a user cannot push what it
 * would load (spec 1 §6).
 */
import { useState } from 'react';
import { Select, type FormInstance } from 'antd';
import type { TTemplate, TTemplateType } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { useTemplates } from './api/queries';
import { KIND_LABELS, type LoadOptions } from './template-values';
import { useLoadTemplate } from './use-load-template';

export interface TemplatePickerProps extends LoadOptions {
  kind: TTemplateType;
  /** The section form the chosen template is loaded into. */
  form: FormInstance;
  onPicked?: () => void;
}

const optionKey = (t: TTemplate) => `${t.isTemplate ? 'template' : 'account'}-${t.id}`;

export function TemplatePicker({ kind, form, onPicked, existingAccount, accountClassId }: TemplatePickerProps) {
  const { canWrite } = useAuth();
  const templates = useTemplates(kind, canWrite);
  const loadTemplate = useLoadTemplate();
  const [picked, setPicked] = useState<string>();
  if (!canWrite) return null;

  const items = templates.data ?? [];
  const toOption = (t: TTemplate) => ({ value: optionKey(t), label: t.name });
  const options = [
    { label: 'Templates', title: 'Templates', options: items.filter((t) => t.isTemplate).map(toOption) },
    { label: 'Accounts', title: 'Accounts', options: items.filter((t) => !t.isTemplate).map(toOption) },
  ].filter((group) => group.options.length > 0);

  const onChange = (key: string) => {
    const template = items.find((t) => optionKey(t) === key);
    if (!template) return;
    setPicked(key);
    loadTemplate(kind, template, form, { existingAccount, accountClassId });
    onPicked?.();
  };

  return (
    // The header of a Collapse folds on click; the picker is not a fold button.
    <span onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()} role="presentation">
      <Select
        aria-label={`${KIND_LABELS[kind]} template`}
        placeholder="Select template"
        size="small"
        showSearch={{ optionFilterProp: 'label' }}
        loading={templates.isPending}
        value={picked}
        onChange={onChange}
        options={options}
        notFoundContent={templates.isError ? 'Templates could not be loaded' : 'No templates'}
        style={{ width: 240 }}
        popupMatchSelectWidth={false}
      />
    </span>
  );
}
