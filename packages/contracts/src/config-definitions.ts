/**
 * Config definitions: the catalogues of component and deployer config keys
 * (spec 2 §3 "Component config definition", §5, §7 Configs; spec 3 §2.5, §3, §7
 * Component configs and Deployer configs).
 *
 * A key is written `rootKey.subKey`; `dataType` null means string. The machine
 * config editors read the catalogue (dataTypes, sub-key suggestions) and create
 * a definition for an unknown key (`POST`, body rootKey, subKey, dataType).
 *
 * Known limitations: only the list and create calls exist; reading, updating and
 * deleting one definition (spec 3 §7) belong to the catalogue screens.
 */
import { z } from 'zod';
import { ZPageQuery, zPaged } from './common.js';
import { IRMN_VERSION_STATUSES } from './catalogues.js';

/** Data types of a config value as the editors name them (spec 2 §9). */
export const CONFIG_DATA_TYPES = ['string', 'number', 'boolean', 'json'] as const;
export type TConfigDataTypeName = (typeof CONFIG_DATA_TYPES)[number];

/** A definition's stored dataType: null is string (spec 3 §3). */
export const ZConfigDataType = z.enum(['number', 'boolean', 'json']).nullable();
export type TConfigDataType = z.infer<typeof ZConfigDataType>;

/** A root key: a letter, then letters, digits or `_` (e.g. `launcher`, `rabbitMq`). */
export const CONFIG_ROOT_KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
/** A sub key: letters, digits, `_`, `.` or `-` (e.g. `port`, `smtp.host`). */
export const CONFIG_SUB_KEY = /^[A-Za-z0-9_.-]+$/;

/** The version a definition applies since, or is deprecated at (name and status). */
export const ZConfigVersionRef = z.object({ id: z.number().int(), name: z.string(), status: z.enum(IRMN_VERSION_STATUSES) });

const definitionBase = {
  id: z.number().int(),
  rootKey: z.string(),
  subKey: z.string(),
  dataType: ZConfigDataType,
  protected: z.boolean(),
  version: ZConfigVersionRef.nullable(),
  deprecatedAtVersion: ZConfigVersionRef.nullable(),
};

/** A component config definition (spec 3 §3 Component config). Default values are catalogue text, typed by dataType. */
export const ZComponentConfigDefinition = z.object({
  ...definitionBase,
  siteSpecific: z.boolean(),
  saasDefaultValue: z.string().nullable(),
  onPremDefaultValue: z.string().nullable(),
  /** null: inherits the default. */
  linuxSpecificValue: z.string().nullable(),
});
export type TComponentConfigDefinition = z.infer<typeof ZComponentConfigDefinition>;

/** A deployer config definition (spec 3 §3 Deployer config): one default value. */
export const ZDeployerConfigDefinition = z.object({ ...definitionBase, defaultValue: z.string().nullable() });
export type TDeployerConfigDefinition = z.infer<typeof ZDeployerConfigDefinition>;

/**
 * `GET /component-configs` and `GET /deployer-configs`: definitions sorted by
 * `rootKey.subKey`; `search` matches a substring of `rootKey.subKey` (any case),
 * `rootKey` one root key exactly.
 */
export const ZListConfigDefinitionsQuery = ZPageQuery.extend({
  search: z.string().trim().max(200).optional(),
  rootKey: z.string().trim().max(100).optional(),
});
export type TListConfigDefinitionsQuery = z.input<typeof ZListConfigDefinitionsQuery>;
export const ZListComponentConfigDefinitionsResponse = zPaged(ZComponentConfigDefinition);
export type TListComponentConfigDefinitionsResponse = z.infer<typeof ZListComponentConfigDefinitionsResponse>;
export const ZListDeployerConfigDefinitionsResponse = zPaged(ZDeployerConfigDefinition);
export type TListDeployerConfigDefinitionsResponse = z.infer<typeof ZListDeployerConfigDefinitionsResponse>;

/**
 * `POST /component-configs` and `POST /deployer-configs` (spec 2 §5, spec 3 §7):
 * a new definition with no defaults, not protected, for every version. 409 when
 * the key exists already.
 */
export const ZCreateConfigDefinitionRequest = z.object({
  rootKey: z.string().trim().min(1, 'Root key is required').max(100).regex(CONFIG_ROOT_KEY, 'A letter, then letters, digits or _'),
  subKey: z.string().trim().min(1, 'Sub key is required').max(100).regex(CONFIG_SUB_KEY, 'Letters, digits, _, . or -'),
  dataType: ZConfigDataType,
});
export type TCreateConfigDefinitionRequest = z.infer<typeof ZCreateConfigDefinitionRequest>;
