/**
 * Reads of the config catalogue screens (spec 3 §2.5, §7): a page of component
 * or deployer config definitions sorted by `rootKey.subKey`, `search` a
 * substring of it. List errors show on the page (spec 3 §8).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TListComponentConfigDefinitionsResponse, TListDeployerConfigDefinitionsResponse } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { configCatalogueKeys, type ConfigDefinitionPageQuery, type ConfigKind } from './keys';

export type ConfigDefinitionPage<K extends ConfigKind> = K extends 'component' ? TListComponentConfigDefinitionsResponse : TListDeployerConfigDefinitionsResponse;

/** `GET /component-configs` or `GET /deployer-configs` with `search`, `startIndex`, `limit`. */
export function useConfigDefinitionPage<K extends ConfigKind>(kind: K, query: ConfigDefinitionPageQuery) {
  return useQuery({
    queryKey: configCatalogueKeys.page(kind, query),
    queryFn: ({ signal }) =>
      api.get<ConfigDefinitionPage<K>>(`${kind}-configs`, {
        searchParams: { search: query.search || undefined, startIndex: query.startIndex, limit: query.limit },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
