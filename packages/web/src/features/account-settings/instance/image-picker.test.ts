/** The image picker's filters, what can be picked, and what a jump-start image sets (spec 1 §2 Instance Settings card). */
import { describe, expect, it } from 'vitest';
import type { TJumpStartConfig, TSaasImage } from '@fleet/contracts';
import { filterImages, imageBlock, jumpStartValues, NO_VERSION, versionOptions } from './image-picker';

const image = (name: string, extra: Partial<TSaasImage> = {}): TSaasImage => ({
  id: name.length,
  name,
  region: 'us-east-1',
  description: '',
  irmnVersion: '8.1',
  official: true,
  active: true,
  jumpStart: false,
  jumpStartConfig: null,
  osType: 'Windows',
  cloudImage: 'ami-1',
  accountCount: 0,
  ...extra,
});

const images = [
  image('a', {}),
  image('bb', { region: 'eu-west-1', irmnVersion: '8.10' }),
  image('ccc', { irmnVersion: null, official: false }),
  image('dddd', { jumpStart: true, active: false, irmnVersion: '8.2' }),
];
const names = (list: TSaasImage[]) => list.map((i) => i.name);

describe('filterImages', () => {
  it('keeps everything with no filter', () => {
    expect(names(filterImages(images, { jumpStart: 'any', official: 'any' }))).toEqual(['a', 'bb', 'ccc', 'dddd']);
  });
  it('filters by region, version (N/A for none), jump-start and official, each tri-state', () => {
    expect(names(filterImages(images, { region: 'eu-west-1', jumpStart: 'any', official: 'any' }))).toEqual(['bb']);
    expect(names(filterImages(images, { version: NO_VERSION, jumpStart: 'any', official: 'any' }))).toEqual(['ccc']);
    expect(names(filterImages(images, { version: '8.1', jumpStart: 'any', official: 'any' }))).toEqual(['a']);
    expect(names(filterImages(images, { jumpStart: 'yes', official: 'any' }))).toEqual(['dddd']);
    expect(names(filterImages(images, { jumpStart: 'no', official: 'any' }))).toEqual(['a', 'bb', 'ccc']);
    expect(names(filterImages(images, { jumpStart: 'any', official: 'no' }))).toEqual(['ccc']);
    expect(names(filterImages(images, { jumpStart: 'no', official: 'yes', region: 'us-east-1' }))).toEqual(['a']);
  });
  it('offers the versions newest first, then N/A', () => {
    expect(versionOptions(images)).toEqual(['8.10', '8.2', '8.1', NO_VERSION]);
  });
});

describe('imageBlock', () => {
  it('blocks inactive images and images of another region than the form', () => {
    expect(imageBlock(images[0]!, 'us-east-1')).toBeNull();
    expect(imageBlock(images[1]!, 'us-east-1')).toBe('Other region');
    expect(imageBlock(images[1]!, undefined)).toBeNull();
    expect(imageBlock(images[3]!, 'us-east-1')).toBe('Inactive');
    expect(imageBlock(images[3]!, undefined)).toBe('Inactive');
  });
});

describe('jumpStartValues', () => {
  const config: TJumpStartConfig = {
    deployer: 'master|abc1234',
    enableSsl: false,
    showInGrafana: true,
    versions: { launcher: 'release/8.1|1111111', siteMaster: 'release/8.1|2222222', unknownThing: 'x' },
    libraryFiles: [4, 9],
  };
  it('sets SSL, monitoring, the versions it names with mode Select and the main library files', () => {
    expect(jumpStartValues(config, { sslLocked: false })).toEqual({
      enableSsl: false,
      showInGrafana: true,
      launcherVersionMode: 'Select',
      launcherVersion: 'release/8.1|1111111',
      siteMasterVersionMode: 'Select',
      siteMasterVersion: 'release/8.1|2222222',
      deployerVersionMode: 'Select',
      deployerVersion: 'master|abc1234',
      mainLibraryMode: 'Select',
      mainLibraryFiles: [4, 9],
    });
  });
  it('leaves a locked SSL, a missing deployer and an empty library alone', () => {
    const values = jumpStartValues({ ...config, deployer: null, libraryFiles: [] }, { sslLocked: true });
    expect(values).not.toHaveProperty('enableSsl');
    expect(values).not.toHaveProperty('deployerVersionMode');
    expect(values).not.toHaveProperty('mainLibraryMode');
    expect(values.showInGrafana).toBe(true);
  });
});
