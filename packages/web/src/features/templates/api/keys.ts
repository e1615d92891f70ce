/** Query keys of templates (spec 1 §7 Templates): one list per kind. */
import type { TTemplateType } from '@fleet/contracts';

export const templateKeys = {
  all: ['templates'] as const,
  list: (kind: TTemplateType) => [...templateKeys.all, kind] as const,
};
