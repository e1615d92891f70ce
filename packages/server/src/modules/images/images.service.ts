/**
 * The image catalogues (spec 3 §2.2 IRMN Versions, §2.3 SaaS Images, §2.4 Cloud
 * Images, §3, §5, §7 IRMN versions and Cloud): reads, and the create, update and
 * delete rules. Every change is audited with its field-level changes in the
 * change's own transaction (DESIGN §5).
 *
 * Rules the specification leaves open, decided here:
 * - One default IRMN version at a time: saving one as default clears the previous
 *   default (audited as its own change). No default at all is allowed.
 * - Names are unique, case-insensitively: IRMN versions by name; SaaS images too,
 *   because accounts and MMA classes name their image (a duplicate must be renamed).
 * - A record still in use is not deleted (409 naming its users): an IRMN version
 *   used by a SaaS image or a component or deployer config; a SaaS image used by a
 *   live account or an MMA class (accounts of classes hidden from the caller are
 *   only counted); a cloud image a SaaS image points at. A SaaS image used by
 *   accounts keeps its region (409), since an account's image is in its region.
 * - A SaaS image's cloud image must be an image of the cloud provider in the
 *   image's region when it is set or changed (400 `cloudImage`); an unchanged one
 *   is kept as stored.
 *
 * Known limitations: templates that name an image are not counted as its users.
 */
import { sql } from 'drizzle-orm';
import {
  IRMN_VERSION_STATUSES,
  ZJumpStartConfigInput,
  type TAuditChange,
  type TCloudImage,
  type TFieldError,
  type TIrmnVersion,
  type TJumpStartConfig,
  type TSaasImage,
  ZDeleteCloudImageQuery,
  ZListCloudImagesQuery,
  ZListSaasImagesQuery,
  ZSaveIrmnVersionRequest,
  ZSaveSaasImageRequest,
} from '@fleet/contracts';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { CloudError, type CloudProvider } from '../../engine/cloud/provider.js';
import { HttpProblem, badRequest, conflict, notFound } from '../../lib/problem.js';
import { sqlState } from '../../lib/input-guard.js';
import { diffChanges, type AuditService } from '../audit/audit.service.js';
import { selectExistingLibraryFileIds, selectRegions } from '../catalogues/catalogues.repository.js';
import * as repo from './images.repository.js';
import { countedUsers, plural, toIrmnVersion, toSaasImage } from './images.mapping.js';

type SaveIrmnVersion = z.output<typeof ZSaveIrmnVersionRequest>;
type SaveSaasImage = z.output<typeof ZSaveSaasImageRequest>;

export interface ImageService {
  irmnVersions(): Promise<TIrmnVersion[]>;
  /** 404 for an unknown id. */
  irmnVersion(id: number): Promise<TIrmnVersion>;
  irmnVersionStatuses(): (typeof IRMN_VERSION_STATUSES)[number][];
  /** 409 for a name already used. */
  createIrmnVersion(opts: { principal: Principal; body: SaveIrmnVersion }): Promise<TIrmnVersion>;
  /** 404 unknown, 409 name already used. */
  updateIrmnVersion(opts: { principal: Principal; id: number; body: SaveIrmnVersion }): Promise<TIrmnVersion>;
  /** 404 unknown, 409 in use (the message names the images and configs). */
  deleteIrmnVersion(opts: { principal: Principal; id: number }): Promise<{ ok: true }>;

  saasImages(opts: { principal: Principal; query: z.output<typeof ZListSaasImagesQuery> }): Promise<TSaasImage[]>;
  saasImage(opts: { principal: Principal; id: number }): Promise<TSaasImage>;
  /** 400 invalid region, IRMN version, cloud image, deployer or library files; 409 name already used. */
  createSaasImage(opts: { principal: Principal; body: SaveSaasImage }): Promise<TSaasImage>;
  /** As create, plus 400 when the name or jumpStart would change, 409 a region change of an image in use. */
  updateSaasImage(opts: { principal: Principal; id: number; body: SaveSaasImage }): Promise<TSaasImage>;
  /** 404 unknown, 409 in use by accounts or MMA classes. */
  deleteSaasImage(opts: { principal: Principal; id: number }): Promise<{ ok: true }>;

  /** Images of the cloud provider, newest first, filtered by a substring of the name or id and a region. 502 when the cloud fails. */
  cloudImages(opts: { query: z.output<typeof ZListCloudImagesQuery> }): Promise<TCloudImage[]>;
  /** Deregisters the image of that name in that region: 404 none, 409 several (without `id`) or used by a SaaS image, 502 cloud failure. */
  deleteCloudImage(opts: { principal: Principal; query: z.output<typeof ZDeleteCloudImageQuery> }): Promise<{ ok: true }>;
}

/** A refusal of the cloud provider as problem details: unknown image 404, anything else 502. */
function cloudProblem(error: unknown): never {
  if (error instanceof CloudError) {
    if (error.code.endsWith('NotFound')) throw notFound(`Image (${error.message})`);
    throw new HttpProblem(502, 'Bad Gateway', `The cloud provider failed: ${error.message}`);
  }
  throw error;
}

const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

/** Serialises SaaS image writes, so that two saves of one name cannot both pass the name check. */
const lockSaasImages = (tx: DbOrTx) => tx.execute(sql`select pg_advisory_xact_lock(hashtext('saas_images'))`);

export function createImageService({ db, audit, cloud }: { db: Db; audit: AuditService; cloud: CloudProvider }): ImageService {
  /** Clears the default tick of every version but `exceptId`, auditing each change. */
  async function clearOtherDefaults(tx: DbOrTx, exceptId: number | undefined): Promise<TAuditChange[]> {
    const others = await repo.selectOtherDefaultsForUpdate(tx, exceptId);
    for (const o of others) await repo.updateIrmnVersion(tx, o.id, { isDefault: false });
    return others.flatMap((o) => diffChanges(`IrmnVersion ${o.name}`, { default: true }, { default: false }));
  }

  async function readImage(principal: Principal, id: number): Promise<TSaasImage> {
    const [row] = await repo.selectSaasImages(db, { id, hiddenClassIds: hiddenClassIds(principal) });
    if (!row) throw notFound(`Image ${id}`);
    return toSaasImage(row);
  }

  /**
   * The field errors of a SaaS image body and the values to store: region known,
   * IRMN version known (by name), cloud image at the provider in that region
   * (when new or changed), deployer version and library files of a jump-start
   * config known.
   */
  async function checkImage(tx: DbOrTx, body: SaveSaasImage, stored?: repo.SaasImageRow) {
    const errors: TFieldError[] = [];
    const regions = await selectRegions(tx);
    if (!regions.some((r) => r.cloudCode === body.region)) errors.push({ propertyName: 'region', errorMessage: `Unknown region '${body.region}'`, attemptedValue: body.region });
    let irmnVersionId: number | null = null;
    if (body.irmnVersion) {
      const version = await repo.selectIrmnVersionByName(tx, body.irmnVersion);
      if (!version) errors.push({ propertyName: 'irmnVersion', errorMessage: `Unknown IRMN version '${body.irmnVersion}'`, attemptedValue: body.irmnVersion });
      irmnVersionId = version?.id ?? null;
    }
    if (!stored || stored.cloudImage !== body.cloudImage || stored.region !== body.region) {
      const image = await cloud.describeImage(body.cloudImage).catch(cloudProblem);
      if (!image || image.status === 'deregistered') {
        errors.push({ propertyName: 'cloudImage', errorMessage: `Image ${body.cloudImage} does not exist at the cloud provider`, attemptedValue: body.cloudImage });
      } else if (image.region !== body.region) {
        errors.push({ propertyName: 'cloudImage', errorMessage: `Image ${body.cloudImage} is in region ${image.region}, not ${body.region}`, attemptedValue: body.cloudImage });
      }
    }
    let jumpStartConfig: TJumpStartConfig | null = null;
    if (body.jumpStart) {
      const config = body.jumpStartConfig ?? ZJumpStartConfigInput.parse({ deployer: null });
      const deployer = config.deployer || null;
      if (deployer) {
        const ref = deployer.includes('://') ? { url: deployer } : { hash: deployer.split('|').pop() ?? '' };
        if (!(await repo.isKnownDeployerVersion(tx, ref))) {
          errors.push({ propertyName: 'jumpStartConfig.deployer', errorMessage: 'Deployer version is not a known commit or build', attemptedValue: deployer });
        }
      }
      const known = await selectExistingLibraryFileIds(tx, config.libraryFiles);
      config.libraryFiles.forEach((id, i) => {
        if (!known.has(id)) errors.push({ propertyName: `jumpStartConfig.libraryFiles.${i}`, errorMessage: `Library file ${id} does not exist`, attemptedValue: id });
      });
      const versions = Object.fromEntries(Object.entries(config.versions).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
      jumpStartConfig = { ...config, deployer, versions };
    }
    if (errors.length > 0) throw badRequest(errors);
    const values: repo.SaasImageValues = {
      name: body.name,
      region: body.region,
      description: body.description,
      irmnVersionId,
      official: body.official,
      active: body.active,
      jumpStart: body.jumpStart,
      jumpStartConfig,
      osType: body.osType,
      cloudImage: body.cloudImage,
    };
    return values;
  }

  /** The audited view of an image's values: the IRMN version by name, the config as stored. */
  const imageFields = (v: repo.SaasImageValues, irmnVersion: string | null) => ({
    name: v.name,
    region: v.region,
    description: v.description,
    irmnVersion,
    official: v.official,
    active: v.active,
    jumpStart: v.jumpStart,
    jumpStartConfig: v.jumpStartConfig ?? null,
    osType: v.osType,
    cloudImage: v.cloudImage,
  });

  async function ensureNameFree(tx: DbOrTx, name: string, exceptId?: number) {
    const same = await repo.selectSaasImageNamed(tx, name, exceptId);
    if (same) throw conflict(`An image named '${same.name}' already exists (region ${same.region})`, [{ propertyName: 'name', errorMessage: 'Name already used', attemptedValue: name }]);
  }

  return {
    irmnVersions: async () => (await repo.selectIrmnVersions(db)).map(toIrmnVersion),

    async irmnVersion(id) {
      const row = await repo.selectIrmnVersion(db, id);
      if (!row) throw notFound(`IRMN version ${id}`);
      return toIrmnVersion(row);
    },

    irmnVersionStatuses: () => [...IRMN_VERSION_STATUSES],

    async createIrmnVersion({ principal, body }) {
      try {
        return await db.transaction(async (tx) => {
          const same = await repo.selectIrmnVersionNamed(tx, body.name);
          if (same) throw conflict(`An IRMN version named '${same.name}' already exists`, [{ propertyName: 'name', errorMessage: 'Name already used', attemptedValue: body.name }]);
          const cleared = body.default ? await clearOtherDefaults(tx, undefined) : [];
          const row = await repo.insertIrmnVersion(tx, { name: body.name, status: body.status, isDefault: body.default });
          await audit.record(tx, {
            action: 'CreateIrmnVersion',
            user: principal.username,
            params: { id: row.id, name: row.name },
            changes: [...diffChanges('IrmnVersion', {}, { name: row.name, status: row.status, default: row.isDefault }), ...cleared],
          });
          return toIrmnVersion(row);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An IRMN version named '${body.name}' already exists`);
        throw error;
      }
    },

    async updateIrmnVersion({ principal, id, body }) {
      try {
        return await db.transaction(async (tx) => {
          const before = await repo.selectIrmnVersion(tx, id, true);
          if (!before) throw notFound(`IRMN version ${id}`);
          const same = await repo.selectIrmnVersionNamed(tx, body.name, id);
          if (same) throw conflict(`An IRMN version named '${same.name}' already exists`, [{ propertyName: 'name', errorMessage: 'Name already used', attemptedValue: body.name }]);
          const cleared = body.default && !before.isDefault ? await clearOtherDefaults(tx, id) : [];
          const row = await repo.updateIrmnVersion(tx, id, { name: body.name, status: body.status, isDefault: body.default });
          await audit.record(tx, {
            action: 'UpdateIrmnVersion',
            user: principal.username,
            params: { id, name: row.name },
            changes: [
              ...diffChanges('IrmnVersion', { name: before.name, status: before.status, default: before.isDefault }, { name: row.name, status: row.status, default: row.isDefault }),
              ...cleared,
            ],
          });
          return toIrmnVersion(row);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An IRMN version named '${body.name}' already exists`);
        throw error;
      }
    },

    async deleteIrmnVersion({ principal, id }) {
      return db.transaction(async (tx) => {
        const row = await repo.selectIrmnVersion(tx, id, true);
        if (!row) throw notFound(`IRMN version ${id}`);
        const users = await repo.selectIrmnVersionUsers(tx, id);
        const parts = [
          users.images.length > 0 && countedUsers('SaaS image', users.images),
          users.componentConfigs.length > 0 && countedUsers('component config', users.componentConfigs),
          users.deployerConfigs.length > 0 && countedUsers('deployer config', users.deployerConfigs),
        ].filter((p): p is string => !!p);
        if (parts.length > 0) throw conflict(`IRMN version ${row.name} is still used by ${parts.join(', ')}`);
        await repo.deleteIrmnVersionRow(tx, id);
        await audit.record(tx, {
          action: 'DeleteIrmnVersion',
          user: principal.username,
          params: { id, name: row.name },
          changes: diffChanges('IrmnVersion', { name: row.name, status: row.status, default: row.isDefault }, { name: null, status: null, default: null }),
        });
        return { ok: true as const };
      });
    },

    async saasImages({ principal, query }) {
      const rows = await repo.selectSaasImages(db, { search: query.search, region: query.region, hiddenClassIds: hiddenClassIds(principal) });
      return rows.map(toSaasImage);
    },

    saasImage: ({ principal, id }) => readImage(principal, id),

    async createSaasImage({ principal, body }) {
      const id = await db.transaction(async (tx) => {
        await lockSaasImages(tx);
        await ensureNameFree(tx, body.name);
        const values = await checkImage(tx, body);
        const id = await repo.insertSaasImage(tx, values);
        await audit.record(tx, {
          action: 'CreateSaasImage',
          user: principal.username,
          params: { id, name: values.name, region: values.region },
          changes: diffChanges('SaasImage', {}, imageFields(values, body.irmnVersion)),
        });
        return id;
      });
      return readImage(principal, id);
    },

    async updateSaasImage({ principal, id, body }) {
      await db.transaction(async (tx) => {
        await lockSaasImages(tx);
        const before = await repo.selectSaasImageForUpdate(tx, id);
        if (!before) throw notFound(`Image ${id}`);
        const locked: TFieldError[] = [];
        if (body.name !== before.name) locked.push({ propertyName: 'name', errorMessage: 'The name of a saved image cannot be changed', attemptedValue: body.name });
        if (body.jumpStart !== before.jumpStart) locked.push({ propertyName: 'jumpStart', errorMessage: 'Jump-start cannot be changed', attemptedValue: body.jumpStart });
        if (locked.length > 0) throw badRequest(locked);
        if (body.region !== before.region) {
          const users = await repo.selectSaasImageUsers(tx, before.name, hiddenClassIds(principal));
          const count = users.accounts.length + users.hiddenAccounts;
          if (count > 0) throw conflict(`Image ${before.name} keeps its region ${before.region} while it is used by ${countedUsers('account', users.accounts, users.hiddenAccounts)}`);
        }
        const values = await checkImage(tx, body, before);
        const beforeVersion = before.irmnVersionId ? await repo.selectIrmnVersion(tx, before.irmnVersionId) : undefined;
        await repo.updateSaasImage(tx, id, values);
        await audit.record(tx, {
          action: 'UpdateSaasImage',
          user: principal.username,
          params: { id, name: before.name, region: values.region },
          changes: diffChanges('SaasImage', imageFields(before, beforeVersion?.name ?? null), imageFields(values, body.irmnVersion)),
        });
      });
      return readImage(principal, id);
    },

    async deleteSaasImage({ principal, id }) {
      return db.transaction(async (tx) => {
        await lockSaasImages(tx);
        const before = await repo.selectSaasImageForUpdate(tx, id);
        if (!before) throw notFound(`Image ${id}`);
        const users = await repo.selectSaasImageUsers(tx, before.name, hiddenClassIds(principal));
        const parts = [
          users.accounts.length + users.hiddenAccounts > 0 && countedUsers('account', users.accounts, users.hiddenAccounts),
          users.mmaClasses.length > 0 && `MMA ${plural(users.mmaClasses.length, 'class', 'classes')} ${users.mmaClasses.join(', ')}`,
        ].filter((p): p is string => !!p);
        if (parts.length > 0) throw conflict(`Image ${before.name} is still used by ${parts.join(' and ')}`);
        await repo.deleteSaasImageRow(tx, id);
        await audit.record(tx, {
          action: 'DeleteSaasImage',
          user: principal.username,
          params: { id, name: before.name, region: before.region, cloudImage: before.cloudImage },
          changes: [{ entityName: 'SaasImage', propertyName: 'name', oldValue: before.name, newValue: null }],
        });
        return { ok: true as const };
      });
    },

    async cloudImages({ query }) {
      const images = await cloud.listImages(query.region || undefined).catch(cloudProblem);
      const needle = query.name?.trim().toLowerCase();
      return images
        .filter((i) => !needle || i.name.toLowerCase().includes(needle) || i.imageId.includes(needle))
        .map((i) => ({ id: i.imageId, name: i.name, description: i.description, state: i.status, region: i.region }));
    },

    async deleteCloudImage({ principal, query }) {
      const matches = (await cloud.listImages(query.region).catch(cloudProblem)).filter((i) => i.name === query.name && (!query.id || i.imageId === query.id));
      if (matches.length === 0) throw notFound(`Image '${query.name}' in region ${query.region}`);
      if (matches.length > 1) throw conflict(`${matches.length} images are named '${query.name}' in region ${query.region}: name one by its id (${matches.map((m) => m.imageId).join(', ')})`);
      const image = matches[0]!;
      return db.transaction(async (tx) => {
        // Under the SaaS image lock: no image can start pointing at it between the check and the delete.
        await lockSaasImages(tx);
        const users = await repo.selectSaasImagesOfCloudImage(tx, image.imageId);
        if (users.length > 0) {
          throw conflict(`Image ${image.name} (${image.imageId}) is still used by ${countedUsers('SaaS image', users)}`);
        }
        await cloud.deleteImage(image.imageId).catch(cloudProblem);
        await audit.record(tx, {
          action: 'DeleteCloudImage',
          user: principal.username,
          params: { id: image.imageId, name: image.name, region: image.region },
          changes: [{ entityName: 'CloudImage', propertyName: 'state', oldValue: image.status, newValue: 'deregistered' }],
        });
        return { ok: true as const };
      });
    },
  };
}
