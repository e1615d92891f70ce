/**
 * The rules of the image picker (spec 1 §2 Instance Settings card "Image picker
 * popover"; spec 3 §2.3): its filters, which images can be picked, and what a
 * jump-start image sets in the instance form. Kept apart from the popover so
 * that they are tested without a browser.
 */
import { CONFIG_COMPONENTS, type TConfigComponent, type TJumpStartConfig, type TMachineConfigInput, type TSaasImage } from '@fleet/contracts';

/** A filter of three states: any, yes, no (spec 1 §2 "official (tri-state)"). */
export type TriState = 'any' | 'yes' | 'no';

/** The version filter's value for images without an IRMN version (spec 1 §2 "version (including N/A)"). */
export const NO_VERSION = 'N/A';

export interface ImageFilters {
  /** Region cloud code; undefined for any. */
  region?: string;
  /** IRMN version name or {@link NO_VERSION}; undefined for any. */
  version?: string;
  jumpStart: TriState;
  official: TriState;
}

const matches = (state: TriState, value: boolean) => state === 'any' || (state === 'yes') === value;

/** The images the filters keep, in the catalogue's order. */
export function filterImages(images: readonly TSaasImage[], f: ImageFilters): TSaasImage[] {
  return images.filter(
    (i) =>
      (f.region === undefined || i.region === f.region) &&
      (f.version === undefined || (i.irmnVersion ?? NO_VERSION) === f.version) &&
      matches(f.jumpStart, i.jumpStart) &&
      matches(f.official, i.official),
  );
}

/** The version filter's options: the images' IRMN versions, newest first, then N/A. */
export function versionOptions(images: readonly TSaasImage[]): string[] {
  const names = [...new Set(images.map((i) => i.irmnVersion).filter((v): v is string => v !== null))];
  names.sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
  return [...names, NO_VERSION];
}

/** Why an image cannot be picked, or null when it can: inactive, or in another region than the form's. */
export function imageBlock(image: TSaasImage, formRegion: string | undefined): 'Inactive' | 'Other region' | null {
  if (!image.active) return 'Inactive';
  if (formRegion && image.region !== formRegion) return 'Other region';
  return null;
}

/**
 * What picking a jump-start image sets in the instance form (spec 1 §2): SSL
 * (unless locked), monitoring (showInGrafana), the deployer and every component
 * version the image names, and its library files as the main library, each mode
 * set to Select. Components the image does not name keep their values.
 */
export function jumpStartValues(config: TJumpStartConfig, opts: { sslLocked: boolean }): Partial<TMachineConfigInput> {
  const values: Record<string, unknown> = { showInGrafana: config.showInGrafana };
  if (!opts.sslLocked) values.enableSsl = config.enableSsl;
  const versions: Partial<Record<TConfigComponent, string>> = { ...config.versions };
  if (config.deployer) versions.deployer = config.deployer;
  for (const key of CONFIG_COMPONENTS) {
    const version = versions[key];
    if (!version) continue;
    values[`${key}VersionMode`] = 'Select';
    values[`${key}Version`] = version;
  }
  if (config.libraryFiles.length > 0) {
    values.mainLibraryMode = 'Select';
    values.mainLibraryFiles = [...config.libraryFiles];
  }
  return values as Partial<TMachineConfigInput>;
}
