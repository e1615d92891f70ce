/**
 * Rules of the License Settings card that need no React (spec 1 §3
 * licenseConfig, §4 AllInOne, §5 rules and push confirmations, §9 constants):
 * the count fields with their labels and minima, the instance policy labels,
 * and which confirmations a push asks, in order.
 */
import { T2_MEDIUM_INSTANCE_TYPE_ID, type TInstancePolicy, type TLicenseConfigInput } from '@fleet/contracts';
import { LICENSE_COUNT_LABELS } from '../../../lib/field-labels';

/** The values of the license form (`section-forms.ts`). */
export type LicenseValues = TLicenseConfigInput;

/** Count fields of the license: maxSites at least 1, the others at least 0 (spec 1 §5); labels from the field labels table. */
export const LICENSE_COUNTS = (
  [
    ['maxSites', 1],
    ['maxAreas', 0],
    ['maxEquips', 0],
    ['maxSoftwares', 0],
    ['maxCircuits', 0],
    ['maxPathways', 0],
    ['maxMainholes', 0],
    ['maxUsers', 0],
    ['maxReportUsers', 0],
    ['maxClientUsers', 0],
    ['maxTechnicianUsers', 0],
    ['maxFaceplates', 0],
    ['maxRacks', 0],
  ] as const satisfies readonly (readonly [keyof LicenseValues & keyof typeof LICENSE_COUNT_LABELS, number])[]
).map(([name, min]) => ({ name, label: LICENSE_COUNT_LABELS[name], min }));

export const INSTANCE_POLICY_LABELS: Record<TInstancePolicy, string> = {
  AllInOne: 'All in one',
  InstancePerSiteMaster: 'Instance per site master (IPSM)',
};

/** Spec 1 §5, asked on push when the cloud instance type is t2.medium (id 2). */
export const T2_MEDIUM_CONFIRM =
  'You have selected t2.medium for Cloud Instance Type. Machine created with this instance type may have low performance and should only be used for simple testing. Are you sure to continue?';
/** Spec 1 §5, asked on push for an account with a parent. */
export const ADD_ON_PUSH_CONFIRM = 'Pushing license settings for add-on account will update license file of parent account. Are you sure to continue?';

/** The confirmations a push asks, in order; the push goes on only when each is answered Yes. */
export function pushConfirmations(values: Pick<LicenseValues, 'cloudInstanceType'>, account: { parentId: number | null }): string[] {
  return [
    ...(values.cloudInstanceType === T2_MEDIUM_INSTANCE_TYPE_ID ? [T2_MEDIUM_CONFIRM] : []),
    ...(account.parentId !== null ? [ADD_ON_PUSH_CONFIRM] : []),
  ];
}
