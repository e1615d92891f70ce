/**
 * The confirmation of Delete Account (spec 1 §2 Accounts list, §5), shared by the
 * accounts list and the edit page. A module of its own, so that the edit page's
 * chunk does not pull in the list page.
 */
export const deleteConfirmText = (name: string) => `This will delete account ${name} and terminate all its machines.`;
