/**
 * Reads of templates (spec 1 §7 Templates). A failure is silent (spec 1 §8:
 * "Silent failures: loading … templates"): no toast; the caller shows an empty
 * list.
 */
import { useQuery } from '@tanstack/react-query';
import type { TTemplate, TTemplateType } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { templateKeys } from './keys';

/**
 * `GET /template/{type}`: the templates of a kind the user may see (public ones
 * and their own), then the template accounts (`isTemplate: false`, `account` set),
 * each with its flattened settings.
 */
export function useTemplates(kind: TTemplateType, enabled = true) {
  return useQuery({
    queryKey: templateKeys.list(kind),
    queryFn: ({ signal }) => api.get<TTemplate[]>(`template/${kind}`, { signal }),
    enabled,
  });
}
