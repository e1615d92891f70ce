/**
 * Query keys of the Library Manager (spec 3 §2.6). The library file lists are
 * the shared `libraryKeys` (the library file dialog reads them too), so that a
 * sync or a delete refreshes every screen that shows library files.
 */
import { libraryKeys } from '../../software-versions/api/keys';

export { libraryKeys };

export const libraryManagerKeys = {
  cloudFiles: () => [...libraryKeys.all, 'cloud-files'] as const,
};
