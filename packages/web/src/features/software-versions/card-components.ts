/**
 * The components of the Component Versions card in the specification's order
 * (spec 1 §2 Instance Settings card), mapped to machineConfig's keys
 * (`CONFIG_COMPONENTS`). The deployer has its own field in the card above.
 */
import type { TConfigComponent } from '@fleet/contracts';

export const CORE_COMPONENTS = [
  'launcher',
  'client',
  'reporting',
  'pdfExport',
  'auditChangeLog',
  'siteMaster',
  'smchk',
  'sqlExport',
  'populate',
  'cadImport',
] as const satisfies readonly TConfigComponent[];

export const INTEGRATION_COMPONENTS = [
  'linkware',
  'discovery',
  'serviceNow',
  'voltServer',
  'fiberSenSys',
  'fiberMountain',
  'commScope',
  'apSensing',
] as const satisfies readonly TConfigComponent[];

export const CARD_COMPONENTS: readonly TConfigComponent[] = [...CORE_COMPONENTS, ...INTEGRATION_COMPONENTS];
