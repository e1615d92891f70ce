/**
 * Values the console needs from the contracts' schemas, computed once at the
 * console's build instead of in the browser (issue 26 point 2): the defaults of
 * the settings sections and the keys each template kind holds. Vite defines
 * them as `__CONSOLE_SCHEMA_VALUES__` (packages/web/vite.config.ts; the unit
 * tests' vitest.config.ts does the same), so the console's bundle carries no
 * schema a first screen would load zod for (about 24 KB gzip and 40 ms of
 * every signed-in page load). `packages/web/src/lib/schema-values.ts` reads them.
 *
 * Plain JSON: every value is what `parse` answers, so the server's and the
 * console's defaults cannot drift apart.
 */
import { ZBackupConfig, ZLicenseConfig, ZMachineConfig } from './account-sections.js';
import { TEMPLATE_VALUE_SCHEMAS, ZGeneralTemplateValues } from './templates.js';

export function consoleSchemaValues() {
  return {
    /** A new account's instance settings with nothing chosen (spec 1 §9). */
    machineConfigDefaults: ZMachineConfig.parse({}),
    /** Backup settings with no time of day (spec 1 §9). */
    backupConfigDefaults: ZBackupConfig.parse({}),
    /** License settings with no instance type (spec 1 §9). */
    licenseConfigDefaults: ZLicenseConfig.parse({}),
    /** A general template's defaults (spec 1 §9). */
    generalTemplateDefaults: ZGeneralTemplateValues.parse({}),
    /** The settings a template of each settings kind holds, in its schema's order. */
    templateKeys: {
      'license-settings': Object.keys(TEMPLATE_VALUE_SCHEMAS['license-settings'].shape),
      'instance-settings': Object.keys(TEMPLATE_VALUE_SCHEMAS['instance-settings'].shape),
      'backup-settings': Object.keys(TEMPLATE_VALUE_SCHEMAS['backup-settings'].shape),
    },
  };
}

/** What {@link consoleSchemaValues} answers. */
export type TConsoleSchemaValues = ReturnType<typeof consoleSchemaValues>;
