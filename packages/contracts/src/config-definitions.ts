/**
 * Config definitions: the catalogues of component and deployer config keys
 * (spec 2 §3 "Component config definition", §5, §7 Configs; spec 3 §2.5, §3, §7
 * Component configs and Deployer configs).
 *
 * A key is written `rootKey.subKey`; `dataType` null means string. The machine
 * config editors read the catalogue (dataTypes, sub-key suggestions) and create
 * a definition for an unknown key (`POST`, body rootKey, subKey, dataType).
 * The key patterns and the rules of types (defaults, type checks) here are the
 * ones both the server and the editors apply.
 *
 * The catalogue screens (spec 3 §2.5, §5) read one definition, update it (only
 * protected, siteSpecific, the default values, versionId and
 * deprecatedAtVersionId: key and data type are immutable) and delete it.
 */
import { z } from 'zod';
import { MAX_SEARCH_LENGTH, ZId, ZPageQuery, zPaged, ZRefId } from './common.js';
import { IRMN_VERSION_STATUSES } from './catalogues.js';

/** Data types of a config value as the editors name them (spec 2 §9). */
export const CONFIG_DATA_TYPES = ['string', 'number', 'boolean', 'json'] as const;
export type TConfigDataTypeName = (typeof CONFIG_DATA_TYPES)[number];

/** A definition's stored dataType: null is string (spec 3 §3). */
export const ZConfigDataType = z.enum(['number', 'boolean', 'json']).nullable();
export type TConfigDataType = z.infer<typeof ZConfigDataType>;

const ROOT_KEY = '[A-Za-z][A-Za-z0-9_]*';
const SUB_KEY = '[A-Za-z0-9_.-]+';
/** A root key: a letter, then letters, digits or `_` (e.g. `launcher`, `rabbitMq`). */
export const CONFIG_ROOT_KEY = new RegExp(`^${ROOT_KEY}$`);
/** What a root key that fails {@link CONFIG_ROOT_KEY} is told. */
export const CONFIG_ROOT_KEY_MESSAGE = 'A letter, then letters, digits or _';
/** A sub key: letters, digits, `_`, `.` or `-` (e.g. `port`, `smtp.host`). */
export const CONFIG_SUB_KEY = new RegExp(`^${SUB_KEY}$`);
/** What a sub key that fails {@link CONFIG_SUB_KEY} is told. */
export const CONFIG_SUB_KEY_MESSAGE = 'Letters, digits, _, . or -';
/** A whole key `rootKey.subKey` (the root key ends at the first dot; a sub key may hold dots). */
export const CONFIG_KEY = new RegExp(`^${ROOT_KEY}\\.${SUB_KEY}$`);

/** The default of a data type (spec 2 §5, §9): number 0, boolean false, json empty object, string (null or any other name) empty. */
export function configTypeDefault(dataType: string | null): unknown {
  switch (dataType) {
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'json':
      return {};
    default:
      return '';
  }
}

/** Whether a value is of the data type: a finite number, a boolean or null, any json, a string (null or any other name). */
export function hasConfigType(value: unknown, dataType: string | null): boolean {
  switch (dataType) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return value === true || value === false || value === null;
    case 'json':
      return value !== undefined;
    default:
      return typeof value === 'string';
  }
}

/** The version a definition applies since, or is deprecated at (name and status). */
export const ZConfigVersionRef = z.object({ id: z.number().int(), name: z.string(), status: z.enum(IRMN_VERSION_STATUSES) });
export type TConfigVersionRef = z.infer<typeof ZConfigVersionRef>;

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
  search: z.string().trim().max(MAX_SEARCH_LENGTH).optional(),
  rootKey: z.string().trim().max(100).optional(),
});
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
  rootKey: z.string().trim().min(1, 'Root key is required').max(100).regex(CONFIG_ROOT_KEY, CONFIG_ROOT_KEY_MESSAGE),
  subKey: z.string().trim().min(1, 'Sub key is required').max(100).regex(CONFIG_SUB_KEY, CONFIG_SUB_KEY_MESSAGE),
  dataType: ZConfigDataType,
});
export type TCreateConfigDefinitionRequest = z.infer<typeof ZCreateConfigDefinitionRequest>;

/** The variables a default value may hold, written `{name}` (spec 3 §2.5; DESIGN §6). */
export const CONFIG_VARIABLES = ['protocol', 'account_name', 'account_url_name', 'site_name', 'site_url_name', 'site_port'] as const;
/** A variable reference `{name}` inside a default value. */
const VARIABLE = /\{([a-z_]+)\}/g;
/** Sample values standing for the variables when a default value's type is checked (`{site_port}` is a number). */
const VARIABLE_SAMPLES: Record<string, string> = { site_port: '443' };

/**
 * Why a catalogue default text is not of the data type, or null when it is
 * (spec 3 §2.5 value inputs). The variables are replaced by samples first, so
 * that `{site_port}` is a number and `"{protocol}://x"` a JSON string. Null
 * (no default) is of every type. number: a finite number; boolean: `true`,
 * `false` or `null`; json: text that parses; string: any text.
 */
export function configDefaultTextError(text: string | null, dataType: string | null): string | null {
  if (text === null) return null;
  const sample = text.replace(VARIABLE, (whole, name: string) => VARIABLE_SAMPLES[name] ?? ((CONFIG_VARIABLES as readonly string[]).includes(name) ? 'x' : whole));
  switch (dataType) {
    case 'number':
      return sample.trim() !== '' && Number.isFinite(Number(sample)) ? null : 'Must be a number';
    case 'boolean':
      return ['true', 'false', 'null'].includes(text) ? null : 'Must be true, false or null';
    case 'json':
      try {
        JSON.parse(sample);
        return null;
      } catch (e) {
        return `Must be valid JSON (${(e as Error).message})`;
      }
    default:
      return null;
  }
}

/** Longest default value text of a definition (characters). */
export const MAX_CONFIG_DEFAULT_LENGTH = 10_000;
/** A default value: catalogue text typed by the definition's dataType, or null for none. */
const ZDefaultText = z.string().max(MAX_CONFIG_DEFAULT_LENGTH).nullable();
/** An IRMN version id, or null for none (every version; never deprecated). */
const ZVersionIdRef = ZRefId.nullable();

const editableBase = {
  protected: z.boolean(),
  versionId: ZVersionIdRef,
  deprecatedAtVersionId: ZVersionIdRef,
};

/**
 * `PUT /component-configs/{id}` (spec 3 §5): only protected, siteSpecific, the
 * three default values, versionId and deprecatedAtVersionId. Key and data type
 * are immutable: a body naming them is 400. Each default must be of the
 * definition's data type (400 naming it); a deprecation version must come after
 * the version (400 naming deprecatedAtVersionId); an unknown version is 400.
 */
export const ZUpdateComponentConfigRequest = z.strictObject({
  ...editableBase,
  siteSpecific: z.boolean(),
  saasDefaultValue: ZDefaultText,
  onPremDefaultValue: ZDefaultText,
  /** null: inherits the default. */
  linuxSpecificValue: ZDefaultText,
});
export type TUpdateComponentConfigRequest = z.infer<typeof ZUpdateComponentConfigRequest>;

/** `PUT /deployer-configs/{id}` (spec 3 §5, §7): as {@link ZUpdateComponentConfigRequest} with one defaultValue. */
export const ZUpdateDeployerConfigRequest = z.strictObject({ ...editableBase, defaultValue: ZDefaultText });
export type TUpdateDeployerConfigRequest = z.infer<typeof ZUpdateDeployerConfigRequest>;

/**
 * `POST /component-configs`: the key and data type, and optionally the fields
 * of an edit (the editor dialog creates with its values; spec 3 §4 "Config
 * dialogs"). Omitted fields: not protected, not site specific, no defaults,
 * every version.
 */
export const ZCreateComponentConfigRequest = ZCreateConfigDefinitionRequest.extend(ZUpdateComponentConfigRequest.partial().shape);
export type TCreateComponentConfigRequest = z.input<typeof ZCreateComponentConfigRequest>;
/** `POST /deployer-configs` (spec 3 §7: rootKey, subKey, dataType), optionally with the fields of an edit. */
export const ZCreateDeployerConfigRequest = ZCreateConfigDefinitionRequest.extend(ZUpdateDeployerConfigRequest.partial().shape);
export type TCreateDeployerConfigRequest = z.input<typeof ZCreateDeployerConfigRequest>;

/**
 * `GET /deployer-configs/{id}`: the definition's id, or its key written
 * `rootKey.subKey` (spec 3 §7 names the read `/deployer-configs/{key}`; one path
 * parameter serves both, since the update and delete of that path take the id;
 * a key starts with a letter, so the two never clash).
 */
export const ZConfigIdOrKeyParams = z.object({
  id: z.union([ZId, z.string().max(201).regex(CONFIG_KEY, 'An id, or a key written rootKey.subKey')]),
});
