/**
 * The values of the Create or Edit SaaS Image dialog (spec 3 §2.3, §5): the
 * defaults of a new image, a duplicate's values, an edit's, and the request
 * body they make.
 */
import type { TJumpStartConfig, TRegion, TSaasImage, TSaveSaasImageRequest } from '@fleet/contracts';
import type { VersionPickerValue } from '../software-versions/VersionPicker';

export interface SaasImageFormValues {
  name: string;
  region: string | undefined;
  description: string;
  /** A version name; undefined is N/A. */
  irmnVersion: string | undefined;
  official: boolean;
  active: boolean;
  jumpStart: boolean;
  osType: 'Windows' | 'Linux';
  cloudImage: string | undefined;
  /** The jump-start config's deployer version (Select a commit or build, or None: the default). */
  deployer: VersionPickerValue;
}

export type SaasImageDialogMode = { kind: 'create' } | { kind: 'edit'; image: TSaasImage } | { kind: 'duplicate'; image: TSaasImage };

const deployerValue = (config: TJumpStartConfig | null): VersionPickerValue =>
  config?.deployer ? { mode: 'Select', version: config.deployer } : { mode: 'None', version: '' };

/**
 * The dialog's first values: a new image has the first region, OS type Windows,
 * official false, jump-start false, active true; a duplicate copies name, IRMN
 * version, cloud image, OS type, jump-start and its config, with official false,
 * active true and the description prefixed "Copy of " (spec 3 §5).
 */
export function initialValues(mode: SaasImageDialogMode, regions: readonly TRegion[]): SaasImageFormValues {
  if (mode.kind === 'create') {
    return {
      name: '',
      region: regions[0]?.cloudCode,
      description: '',
      irmnVersion: undefined,
      official: false,
      active: true,
      jumpStart: false,
      osType: 'Windows',
      cloudImage: undefined,
      deployer: { mode: 'None', version: '' },
    };
  }
  const { image } = mode;
  const copy = mode.kind === 'duplicate';
  return {
    name: image.name,
    region: image.region,
    description: copy ? `Copy of ${image.description}` : image.description,
    irmnVersion: image.irmnVersion ?? undefined,
    official: copy ? false : image.official,
    active: copy ? true : image.active,
    jumpStart: image.jumpStart,
    osType: image.osType,
    cloudImage: image.cloudImage,
    deployer: deployerValue(image.jumpStartConfig),
  };
}

/** The request body: a jump-start image keeps the rest of its config (versions, library files) with the chosen deployer. */
export function toRequest(values: SaasImageFormValues, source: TSaasImage | undefined): TSaveSaasImageRequest {
  const config = source?.jumpStartConfig;
  return {
    name: values.name.trim(),
    region: values.region ?? '',
    description: values.description.trim(),
    irmnVersion: values.irmnVersion ?? null,
    official: values.official,
    active: values.active,
    jumpStart: values.jumpStart,
    osType: values.osType,
    cloudImage: values.cloudImage ?? '',
    jumpStartConfig: values.jumpStart
      ? {
          deployer: values.deployer.mode === 'Select' && values.deployer.version ? values.deployer.version : null,
          enableSsl: config?.enableSsl ?? true,
          showInGrafana: config?.showInGrafana ?? false,
          versions: config?.versions ?? {},
          libraryFiles: config?.libraryFiles ?? [],
        }
      : null,
  };
}
