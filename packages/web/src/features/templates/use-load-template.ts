/**
 * Loading a template into its section form (spec 1 §2 Manage Templates:
 * "Selecting a template loads its values"; §8 'Template loaded'). Shared by the
 * dialog and the card pickers.
 */
import { useCallback } from 'react';
import type { FormInstance } from 'antd';
import type { TTemplate, TTemplateType } from '@fleet/contracts';
import { useToast } from '../../app/toast';
import { templateToFormValues, type LoadOptions } from './template-values';

/** A function that sets the template's values on `form` and shows 'Template loaded'. */
export function useLoadTemplate() {
  const toast = useToast();
  return useCallback(
    (kind: TTemplateType, template: TTemplate, form: FormInstance, opts?: LoadOptions) => {
      form.setFieldsValue(templateToFormValues(kind, template, opts));
      toast.success('Template loaded');
    },
    [toast],
  );
}
