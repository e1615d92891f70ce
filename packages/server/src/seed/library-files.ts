/**
 * The library's objects and the cloud library for the demo (DESIGN §13; spec 3
 * §2.6): every seeded library file in the store gets its object in the library
 * folder and in the cloud library, and the cloud library holds a few newer files
 * that the library does not know yet, for the Sync library files dialog.
 * Deterministic: the same bytes on every run; seeding twice rewrites the same keys.
 */
import { asc, eq } from 'drizzle-orm';
import type { TLibraryFile } from '@fleet/contracts';
import type { DbOrTx } from '../db/client.js';
import { libraryFiles } from '../db/schema.js';
import type { ObjectStore } from '../storage/object-store.js';
import { cloudLibraryObjectKey, libraryObjectKey, type LibraryFileIdentity } from '../modules/library/library-objects.js';
import { seedOf, simulatedSampleData } from '../storage/simulated-files.js';
import { daysBefore } from './random.js';

/** Files only the cloud library has: the next patches of a few packages. */
export const CLOUD_ONLY_LIBRARY_FILES: LibraryFileIdentity[] = [
  { name: 'Core_Dev_8.2.2.zip', package: 'Core', type: 'Dev', version: '8.2' },
  { name: 'Fiber_Dev_8.2.2.zip', package: 'Fiber', type: 'Dev', version: '8.2' },
  { name: 'Power_Prod_8.1.5.zip', package: 'Power', type: 'Prod', version: '8.1' },
  { name: 'Network_Prod_8.1.5.zip', package: 'Network', type: 'Prod', version: '8.1' },
  { name: 'Security_Dev_8.2.2.zip', package: 'Security', type: 'Dev', version: '8.2' },
];

/** A small zip standing for a library file's content. */
const contentOf = (f: LibraryFileIdentity) =>
  simulatedSampleData({ name: f.name, source: `Library ${f.package} ${f.type} ${f.version}`, createdAt: daysBefore(30), seed: seedOf('library', f.name) });

/** Writes the objects (module docstring); answers how many were written. */
export async function seedLibraryObjects(db: DbOrTx, store: ObjectStore): Promise<{ objects: number }> {
  let objects = 0;
  const rows = await db.select().from(libraryFiles).where(eq(libraryFiles.inS3, true)).orderBy(asc(libraryFiles.id));
  for (const row of rows) {
    const f = { ...row, type: row.type as TLibraryFile['type'] };
    const bytes = contentOf(f);
    await store.put(libraryObjectKey(f), bytes, { contentType: 'application/zip' });
    await store.put(cloudLibraryObjectKey(f), bytes, { contentType: 'application/zip' });
    objects += 2;
  }
  for (const f of CLOUD_ONLY_LIBRARY_FILES) {
    await store.put(cloudLibraryObjectKey(f), contentOf(f), { contentType: 'application/zip' });
    objects += 1;
  }
  return { objects };
}
