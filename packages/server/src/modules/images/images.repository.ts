/**
 * SQL of the image catalogues (spec 3 §2.2 IRMN versions, §2.3 SaaS images,
 * §2.4 cloud images): their rows, and who uses a row (the in-use checks of a
 * delete). Images of the cloud provider are read through the provider, not here.
 */
import { and, asc, eq, ilike, inArray, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import { readAll, type DbOrTx } from '../../db/client.js';
import { accounts, componentConfigs, deployerConfigs, irmnVersions, mmaClasses, saasImages, saasImageUsageDeltas, softwareBuilds, softwareCommits } from '../../db/schema.js';
import { likePattern } from '../../db/like-pattern.js';

export type IrmnVersionRow = typeof irmnVersions.$inferSelect;
export type SaasImageRow = typeof saasImages.$inferSelect;

/** Names listed in an in-use refusal before "and N more". */
export const USERS_NAMED = 5;

// ---------------------------------------------------------------- IRMN versions

export const selectIrmnVersions = (db: DbOrTx) => db.select().from(irmnVersions).orderBy(asc(irmnVersions.name));

export async function selectIrmnVersion(db: DbOrTx, id: number, forUpdate = false): Promise<IrmnVersionRow | undefined> {
  const q = db.select().from(irmnVersions).where(eq(irmnVersions.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function selectIrmnVersionByName(db: DbOrTx, name: string): Promise<IrmnVersionRow | undefined> {
  const [row] = await db.select().from(irmnVersions).where(eq(irmnVersions.name, name));
  return row;
}

/** Another version (not `exceptId`) named `name`, compared case-insensitively. */
export async function selectIrmnVersionNamed(db: DbOrTx, name: string, exceptId?: number): Promise<IrmnVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(irmnVersions)
    .where(and(sql`lower(${irmnVersions.name}) = lower(${name})`, exceptId ? ne(irmnVersions.id, exceptId) : undefined));
  return row;
}

/** The default versions other than `exceptId`, locked: saving a default clears them. */
export const selectOtherDefaultsForUpdate = (db: DbOrTx, exceptId?: number) =>
  db
    .select()
    .from(irmnVersions)
    .where(and(eq(irmnVersions.isDefault, true), exceptId ? ne(irmnVersions.id, exceptId) : undefined))
    .for('update');

export async function insertIrmnVersion(db: DbOrTx, values: { name: string; status: string; isDefault: boolean }): Promise<IrmnVersionRow> {
  const [row] = await db.insert(irmnVersions).values(values).returning();
  return row!;
}

export async function updateIrmnVersion(db: DbOrTx, id: number, values: Partial<{ name: string; status: string; isDefault: boolean }>): Promise<IrmnVersionRow> {
  const [row] = await db.update(irmnVersions).set(values).where(eq(irmnVersions.id, id)).returning();
  return row!;
}

export const deleteIrmnVersionRow = (db: DbOrTx, id: number) => db.delete(irmnVersions).where(eq(irmnVersions.id, id));

/** What uses an IRMN version: SaaS image names and component and deployer config keys (`rootKey.subKey`). */
export async function selectIrmnVersionUsers(db: DbOrTx, id: number) {
  const usesVersion = (t: typeof componentConfigs | typeof deployerConfigs) => or(eq(t.versionId, id), eq(t.deprecatedAtVersionId, id));
  const [images, components, deployers] = await readAll(db, [
    () => db.select({ name: saasImages.name }).from(saasImages).where(eq(saasImages.irmnVersionId, id)).orderBy(asc(saasImages.name)),
    () =>
      db
        .select({ key: sql<string>`${componentConfigs.rootKey} || '.' || ${componentConfigs.subKey}` })
        .from(componentConfigs)
        .where(usesVersion(componentConfigs))
        .orderBy(asc(componentConfigs.rootKey), asc(componentConfigs.subKey)),
    () =>
      db
        .select({ key: sql<string>`${deployerConfigs.rootKey} || '.' || ${deployerConfigs.subKey}` })
        .from(deployerConfigs)
        .where(usesVersion(deployerConfigs))
        .orderBy(asc(deployerConfigs.rootKey), asc(deployerConfigs.subKey)),
  ]);
  return { images: images.map((r) => r.name), componentConfigs: components.map((r) => r.key), deployerConfigs: deployers.map((r) => r.key) };
}

// ---------------------------------------------------------------- SaaS images

/**
 * Live accounts of visible classes per image name (accounts name their image;
 * DESIGN §5: hidden classes are not counted): a sum over the usage deltas the
 * accounts' triggers keep per (image name, class), a few rows per image after
 * compaction (`db/account-counts.ts`), rather than a read of every live account.
 */
function accountCounts(db: DbOrTx, hiddenClassIds: number[]) {
  return db
    .select({ name: sql<string>`${saasImageUsageDeltas.imageName}`.as('image_name'), n: sql<number>`sum(${saasImageUsageDeltas.n})::int`.as('n') })
    .from(saasImageUsageDeltas)
    .where(hiddenClassIds.length > 0 ? notInArray(saasImageUsageDeltas.classId, hiddenClassIds) : undefined)
    .groupBy(saasImageUsageDeltas.imageName)
    .as('account_counts');
}

/** SaaS images with their IRMN version name and usage count, by name then region; `search` a substring of the name, `region` a cloud code. */
export function selectSaasImages(db: DbOrTx, q: { search?: string; region?: string; id?: number; hiddenClassIds: number[] }) {
  const search = q.search?.trim();
  const counts = accountCounts(db, q.hiddenClassIds);
  return db
    .select({ image: saasImages, irmnVersion: irmnVersions.name, accountCount: sql<number>`coalesce(${counts.n}, 0)` })
    .from(saasImages)
    .leftJoin(irmnVersions, eq(irmnVersions.id, saasImages.irmnVersionId))
    .leftJoin(counts, eq(counts.name, saasImages.name))
    .where(
      and(
        search ? ilike(saasImages.name, likePattern(search)) : undefined,
        q.region ? eq(saasImages.region, q.region) : undefined,
        q.id !== undefined ? eq(saasImages.id, q.id) : undefined,
      ),
    )
    .orderBy(asc(saasImages.name), asc(saasImages.region), asc(saasImages.id));
}

export async function selectSaasImageForUpdate(db: DbOrTx, id: number): Promise<SaasImageRow | undefined> {
  const [row] = await db.select().from(saasImages).where(eq(saasImages.id, id)).for('update');
  return row;
}

/** Another image (not `exceptId`) named `name`, compared case-insensitively: accounts name their image. */
export async function selectSaasImageNamed(db: DbOrTx, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: saasImages.id, name: saasImages.name, region: saasImages.region })
    .from(saasImages)
    .where(and(sql`lower(${saasImages.name}) = lower(${name})`, exceptId ? ne(saasImages.id, exceptId) : undefined));
  return row;
}

export type SaasImageValues = Omit<typeof saasImages.$inferInsert, 'id'>;

export async function insertSaasImage(db: DbOrTx, values: SaasImageValues): Promise<number> {
  const [row] = await db.insert(saasImages).values(values).returning({ id: saasImages.id });
  return row!.id;
}

export async function updateSaasImage(db: DbOrTx, id: number, values: Partial<SaasImageValues>): Promise<void> {
  await db.update(saasImages).set(values).where(eq(saasImages.id, id));
}

export const deleteSaasImageRow = (db: DbOrTx, id: number) => db.delete(saasImages).where(eq(saasImages.id, id));

/**
 * Who uses a SaaS image (by name): live accounts, visible ones named and hidden
 * ones only counted, and MMA classes.
 */
export async function selectSaasImageUsers(db: DbOrTx, name: string, hiddenClassIds: number[]) {
  const live = and(eq(accounts.vmImageName, name), isNull(accounts.deletedAt));
  const [visible, hidden, classes] = await readAll(db, [
    () =>
      db
        .select({ name: accounts.name })
        .from(accounts)
        .where(and(live, hiddenClassIds.length > 0 ? notInArray(accounts.classId, hiddenClassIds) : undefined))
        .orderBy(asc(accounts.name)),
    () =>
      hiddenClassIds.length > 0
        ? db.select({ n: sql<number>`count(*)::int` }).from(accounts).where(and(live, inArray(accounts.classId, hiddenClassIds)))
        : Promise.resolve([{ n: 0 }]),
    () => db.select({ name: mmaClasses.name }).from(mmaClasses).where(eq(mmaClasses.image, name)).orderBy(asc(mmaClasses.id)),
  ]);
  return { accounts: visible.map((r) => r.name), hiddenAccounts: hidden[0]?.n ?? 0, mmaClasses: classes.map((r) => r.name) };
}

/** SaaS images pointing at a cloud image id, by name. */
export async function selectSaasImagesOfCloudImage(db: DbOrTx, cloudImage: string): Promise<string[]> {
  const rows = await db.select({ name: saasImages.name }).from(saasImages).where(eq(saasImages.cloudImage, cloudImage)).orderBy(asc(saasImages.name));
  return rows.map((r) => r.name);
}

/** Whether `hash` (short or full) is a deployer commit, or `url` a deployer build. */
export async function isKnownDeployerVersion(db: DbOrTx, ref: { hash?: string; url?: string }): Promise<boolean> {
  if (ref.url !== undefined) {
    const rows = await db
      .select({ id: softwareBuilds.id })
      .from(softwareBuilds)
      .where(and(eq(softwareBuilds.software, 'deployer'), eq(softwareBuilds.url, ref.url)))
      .limit(1);
    return rows.length > 0;
  }
  const hash = ref.hash ?? '';
  const rows = await db
    .select({ id: softwareCommits.id })
    .from(softwareCommits)
    .where(and(eq(softwareCommits.software, 'deployer'), or(eq(softwareCommits.shortHash, hash), eq(softwareCommits.fullHash, hash))))
    .limit(1);
  return rows.length > 0;
}
