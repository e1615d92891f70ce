/**
 * The values of the SaaS image dialog (spec 3 §5): a new image's defaults, what a
 * duplicate copies and resets, and the body a jump-start image sends.
 */
import { describe, expect, it } from 'vitest';
import type { TRegion, TSaasImage } from '@fleet/contracts';
import { initialValues, toRequest } from './saas-image-form';

const regions: TRegion[] = [
  { id: 1, name: 'US East (N. Virginia)', cloudCode: 'us-east-1' },
  { id: 2, name: 'EU (Ireland)', cloudCode: 'eu-west-1' },
];

const jumpStart: TSaasImage = {
  id: 7,
  name: 'js-campus',
  region: 'eu-west-1',
  description: 'Campus sample data',
  irmnVersion: '8.1',
  official: true,
  active: false,
  jumpStart: true,
  jumpStartConfig: { deployer: 'master|abc1234', enableSsl: true, showInGrafana: true, versions: { launcher: 'release/8.1|def5678' }, libraryFiles: [3, 4] },
  osType: 'Linux',
  cloudImage: 'ami-0123456789abcdef0',
  accountCount: 3,
};

describe('SaaS image dialog values', () => {
  it('a new image: first region, Windows, not official, not jump-start, active', () => {
    expect(initialValues({ kind: 'create' }, regions)).toMatchObject({
      name: '',
      region: 'us-east-1',
      osType: 'Windows',
      official: false,
      jumpStart: false,
      active: true,
      irmnVersion: undefined,
      cloudImage: undefined,
    });
  });

  it("a duplicate copies name, IRMN version, cloud image, OS type, jump-start and config; official false, active true, 'Copy of ' description", () => {
    const copy = initialValues({ kind: 'duplicate', image: jumpStart }, regions);
    expect(copy).toMatchObject({
      name: 'js-campus',
      region: 'eu-west-1',
      description: 'Copy of Campus sample data',
      irmnVersion: '8.1',
      official: false,
      active: true,
      jumpStart: true,
      osType: 'Linux',
      cloudImage: 'ami-0123456789abcdef0',
      deployer: { mode: 'Select', version: 'master|abc1234' },
    });
    expect(toRequest({ ...copy, name: 'js-campus-2' }, jumpStart).jumpStartConfig).toEqual(jumpStart.jumpStartConfig);
  });

  it('an edit keeps the values; the deployer set to Default sends a null deployer and keeps the rest of the config', () => {
    const edit = initialValues({ kind: 'edit', image: jumpStart }, regions);
    expect(edit).toMatchObject({ official: true, active: false, description: 'Campus sample data' });
    const body = toRequest({ ...edit, deployer: { mode: 'None', version: '' } }, jumpStart);
    expect(body.jumpStartConfig).toEqual({ ...jumpStart.jumpStartConfig, deployer: null });
    expect(toRequest({ ...edit, jumpStart: false }, jumpStart).jumpStartConfig).toBeNull();
  });
});
