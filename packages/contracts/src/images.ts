/**
 * The image catalogues (spec 3 §2.2 IRMN Versions, §2.3 SaaS Images, §2.4 Cloud
 * Images, §3, §5, §7 IRMN versions and Cloud): their list filters and the
 * bodies of their create, update and delete calls. The read shapes of IRMN
 * versions and SaaS images are `ZIrmnVersion` (catalogues.ts) and `ZSaasImage`
 * (fleet.ts), which other screens read too.
 */
import { z } from 'zod';
import { MAX_SEARCH_LENGTH, ZRefId } from './common.js';
import { CONFIG_COMPONENTS } from './account-sections.js';
import { IRMN_VERSION_STATUSES } from './catalogues.js';

/** OS types of a SaaS image (spec 3 §5, §9). */
export const OS_TYPES = ['Windows', 'Linux'] as const;
export type TOsType = (typeof OS_TYPES)[number];

/** `GET /lookup/irmn-version-statuses` (spec 3 §2.2, §7): the status options of the version dialog. */
export const ZIrmnVersionStatusesResponse = z.array(z.enum(IRMN_VERSION_STATUSES));

/**
 * `POST /irmn-versions`, `PUT /irmn-versions/{id}` (spec 3 §2.2, §7): name (unique,
 * 1 to 50 characters), status, default. Saving a default takes the tick from the
 * previous default: one default at a time.
 */
export const ZSaveIrmnVersionRequest = z.object({
  name: z.string().trim().min(1, 'Name is required').max(50),
  status: z.enum(IRMN_VERSION_STATUSES),
  default: z.boolean(),
});
export type TSaveIrmnVersionRequest = z.input<typeof ZSaveIrmnVersionRequest>;

/** The characters the cloud allows in an AMI name (and so in a SaaS image name). */
export const IMAGE_NAME_PATTERN = /^[A-Za-z0-9()[\]./\-'@_ ]+$/;
export const IMAGE_NAME_MESSAGE = "Name may hold letters, digits, spaces and ()[]./-'@_ only";

/**
 * A SaaS image name, as the cloud allows AMI names: 3 to 128 letters, digits,
 * spaces and `()[]./-'@_`. Also the name of a jump-start image made by
 * `POST /machines/{id}/create-ami`, which becomes a SaaS image of that name.
 */
export const ZImageName = z.string().trim().min(3, 'Name must have at least 3 characters').max(128).regex(IMAGE_NAME_PATTERN, IMAGE_NAME_MESSAGE);

/** An EC2-like image id: `ami-` and 8 to 17 lowercase hexadecimal digits. */
export const ZCloudImageId = z
  .string()
  .max(21)
  .regex(/^ami-[0-9a-f]{8,17}$/, 'Must be an image id (ami- and 8 to 17 hexadecimal digits)');

/** A region's cloud code, e.g. `eu-west-1`. */
export const ZRegionCode = z.string().trim().min(1, 'Region is required').max(50);

/** The jump-start config a SaaS image dialog sends (spec 3 §2.3): the deployer version and what the image brings. */
export const ZJumpStartConfigInput = z.object({
  deployer: z.string().trim().max(500).nullable().default(null),
  enableSsl: z.boolean().default(true),
  showInGrafana: z.boolean().default(false),
  versions: z
    .partialRecord(z.enum(CONFIG_COMPONENTS), z.string().max(500))
    .meta({ maxProperties: CONFIG_COMPONENTS.length })
    .default({}),
  libraryFiles: z.array(ZRefId).max(200).default([]),
});

/**
 * `POST /cloud/images`, `PUT /cloud/images/{id}` (spec 3 §2.3, §5). Defaults are
 * a new image's: OS type Windows, official false, jumpStart false, active true.
 * `irmnVersion` is a version name (null: N/A); `cloudImage` an image of the cloud
 * provider in the same region. On update, `name` and `jumpStart` must be the
 * stored ones (the dialog locks them); `jumpStartConfig` counts only for a
 * jump-start image.
 */
export const ZSaveSaasImageRequest = z.object({
  name: ZImageName,
  region: ZRegionCode,
  description: z.string().trim().max(1000).default(''),
  irmnVersion: z.string().trim().max(50).nullable().default(null),
  official: z.boolean().default(false),
  active: z.boolean().default(true),
  jumpStart: z.boolean().default(false),
  jumpStartConfig: ZJumpStartConfigInput.nullable().default(null),
  osType: z.enum(OS_TYPES).default('Windows'),
  cloudImage: ZCloudImageId,
});
export type TSaveSaasImageRequest = z.input<typeof ZSaveSaasImageRequest>;

/** `GET /cloud/images` (spec 3 §2.3): `search` a case-insensitive substring of the name, `region` a cloud code. */
export const ZListSaasImagesQuery = z.object({
  search: z.string().max(MAX_SEARCH_LENGTH).optional(),
  region: z.string().max(50).optional(),
});
export type TListSaasImagesQuery = z.input<typeof ZListSaasImagesQuery>;

/** States of an image at the cloud provider (EC2's). */
export const CLOUD_IMAGE_STATES = ['pending', 'available', 'deregistered'] as const;

/** An image held by the cloud provider (spec 3 §2.4, §3): `id` is its `ami-` id. */
export const ZCloudImage = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  state: z.enum(CLOUD_IMAGE_STATES),
  region: z.string(),
});
export type TCloudImage = z.infer<typeof ZCloudImage>;
export const ZCloudImagesResponse = z.array(ZCloudImage);

/** `GET /cloud/caa-images` (spec 3 §2.4, §7 Cloud): `name` a case-insensitive substring of the name or id, `region` a cloud code. */
export const ZListCloudImagesQuery = z.object({
  name: z.string().max(MAX_SEARCH_LENGTH).optional(),
  region: z.string().max(50).optional(),
});
export type TListCloudImagesQuery = z.input<typeof ZListCloudImagesQuery>;

/**
 * `DELETE /cloud/caa-images` (spec 3 §2.4, §7 Cloud): the image of that exact
 * name in that region; `id` (its `ami-` id) picks one when several share the name.
 */
export const ZDeleteCloudImageQuery = z.object({
  name: z.string().min(1).max(128),
  region: ZRegionCode,
  id: ZCloudImageId.optional(),
});
export type TDeleteCloudImageQuery = z.input<typeof ZDeleteCloudImageQuery>;
