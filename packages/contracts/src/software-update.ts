/**
 * Validation of an instance settings push (spec 1 §5 "Instance settings push
 * first asks the server to validate; returned issues (each with a description)
 * are listed and the user must confirm"; spec 1 §7 `POST /software-update/validate`).
 */
import { z } from 'zod';
import { ZMachineConfig } from './account-sections.js';
import { ZRefId } from './common.js';

/** The deployer warning of spec 3 §5. */
export const DEPLOYER_WARNING =
  'Choosing a deployer version different from the default version of the MMA class may result in machine(s) having inconsistent state';

/** `POST /software-update/validate`: the account and the instance settings about to be pushed. */
export const ZValidateSoftwareUpdateRequest = ZMachineConfig.extend({ accountId: ZRefId });
export type TValidateSoftwareUpdateRequest = z.input<typeof ZValidateSoftwareUpdateRequest>;

export const SOFTWARE_UPDATE_ISSUE_KINDS = ['BreakingCommit', 'Downgrade', 'UnknownVersion', 'DeployerVersion', 'BranchMismatch', 'LibraryVersion', 'MachineNotUpdated'] as const;

/** One thing the operator should confirm before pushing. */
export const ZSoftwareUpdateIssue = z.object({
  kind: z.enum(SOFTWARE_UPDATE_ISSUE_KINDS),
  description: z.string(),
});
export type TSoftwareUpdateIssue = z.infer<typeof ZSoftwareUpdateIssue>;
export const ZValidateSoftwareUpdateResponse = z.object({ issues: z.array(ZSoftwareUpdateIssue) });
export type TValidateSoftwareUpdateResponse = z.infer<typeof ZValidateSoftwareUpdateResponse>;
