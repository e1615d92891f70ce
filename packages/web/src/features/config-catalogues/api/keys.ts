/**
 * Query keys of the config catalogue screens (spec 3 §2.5). They sit under the
 * machines feature's `configDefinitionKeys`, so that invalidating a catalogue
 * refreshes both these pages and the machine config editors' copy of it.
 */
import { configDefinitionKeys, machineKeys, type ConfigKind } from '../../machines/api/keys';

export type { ConfigKind };

/** A page of a catalogue as the screens ask for it. */
export interface ConfigDefinitionPageQuery {
  search: string;
  startIndex: number;
  limit: number;
}

export const configCatalogueKeys = {
  /** Every cached read of the kind's catalogue: these pages and the editors' whole list. */
  catalogue: (kind: ConfigKind) => configDefinitionKeys.catalogue(kind),
  page: (kind: ConfigKind, query: ConfigDefinitionPageQuery) => [...configDefinitionKeys.catalogue(kind), 'page', query] as const,
  /** The machines' default configurations, made from the catalogues (DESIGN §6). */
  machineDefaults: () => [...machineKeys.all, 'default-config'] as const,
};
