/** Rules of the Select Library File dialog (spec 1 §2 Instance Settings card, §9). */
import type { TLibraryFile } from '@fleet/contracts';

/** Rows per page: the 550 px table height over 45 px rows (spec 1 §9), i.e. 12. */
export const LIBRARY_DIALOG_PAGE_SIZE = Math.floor(550 / 45);

/**
 * The newest of `installed` (the account's current library files) that has
 * `file`'s package and a later date than `file`, if any: the row of `file` warns.
 */
export function newerInstalled(file: TLibraryFile, installed: readonly TLibraryFile[]): TLibraryFile | undefined {
  return installed
    .filter((i) => i.id !== file.id && i.package === file.package && Date.parse(i.date) > Date.parse(file.date))
    .sort((a, b) => Date.parse(b.date) - Date.parse(a.date))[0];
}
