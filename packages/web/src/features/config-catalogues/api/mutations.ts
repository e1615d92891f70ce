/**
 * Changes to the config catalogues (spec 3 §2.5, §4 "Config dialogs", §5, §8):
 * save (create without an id, else update with only the editable fields) and
 * delete. Toasts 'Component config saved' / 'Error occurred saving component
 * config' and 'Component config deleted' / 'Error occurred deleting component
 * config', used for deployer configs too (spec 3 §8); the server's reason is
 * appended to an error. After a change every cached read of the catalogue (these
 * pages, the machine config editors) and the machines' defaults are refetched.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  TComponentConfigDefinition,
  TConfigDataType,
  TDeployerConfigDefinition,
  TUpdateComponentConfigRequest,
  TUpdateDeployerConfigRequest,
} from '@fleet/contracts';
import { api, ApiError } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { configCatalogueKeys, type ConfigKind } from './keys';

export type TConfigDefinitionOf<K extends ConfigKind> = K extends 'component' ? TComponentConfigDefinition : TDeployerConfigDefinition;
export type TConfigEditOf<K extends ConfigKind> = K extends 'component' ? TUpdateComponentConfigRequest : TUpdateDeployerConfigRequest;

/** What the editor dialog saves: the id of an existing definition, else the key and type of a new one; and the edit fields. */
export type ConfigDefinitionSave<K extends ConfigKind> =
  | { id: number; edit: TConfigEditOf<K> }
  | { id?: undefined; rootKey: string; subKey: string; dataType: TConfigDataType; edit: TConfigEditOf<K> };

const withDetail = (text: string, error: unknown) => (error instanceof ApiError && error.detail ? `${text}: ${error.detail}` : text);

function useRefreshCatalogue(kind: ConfigKind) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: configCatalogueKeys.catalogue(kind) }),
      queryClient.invalidateQueries({ queryKey: configCatalogueKeys.machineDefaults() }),
    ]);
}

/** `POST /{kind}-configs` (key, type and the edit fields) or `PUT /{kind}-configs/{id}` (the edit fields only, spec 3 §5). */
export function useSaveConfigDefinition<K extends ConfigKind>(kind: K) {
  const toast = useToast();
  const refresh = useRefreshCatalogue(kind);
  return useMutation({
    mutationFn: (save: ConfigDefinitionSave<K>) =>
      save.id === undefined
        ? api.post<TConfigDefinitionOf<K>>(`${kind}-configs`, { rootKey: save.rootKey, subKey: save.subKey, dataType: save.dataType, ...save.edit })
        : api.put<TConfigDefinitionOf<K>>(`${kind}-configs/${save.id}`, save.edit),
    onSuccess: () => toast.success('Component config saved'),
    onError: (error) => toast.error(withDetail('Error occurred saving component config', error)),
    onSettled: refresh,
  });
}

/** `DELETE /{kind}-configs/{id}`; refused (409) while machines hold the key, the toast says which. */
export function useDeleteConfigDefinition(kind: ConfigKind) {
  const toast = useToast();
  const refresh = useRefreshCatalogue(kind);
  return useMutation({
    mutationFn: (id: number) => api.delete<{ ok: true }>(`${kind}-configs/${id}`),
    onSuccess: () => toast.success('Component config deleted'),
    onError: (error) => toast.error(withDetail('Error occurred deleting component config', error)),
    onSettled: refresh,
  });
}
