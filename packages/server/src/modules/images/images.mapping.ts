/**
 * The read shapes and refusal texts of the image catalogues (spec 3 §3): rows as
 * the contracts have them (`TIrmnVersion`, `TSaasImage`), and how an in-use
 * refusal names the users of a record.
 */
import type { TIrmnVersion, TJumpStartConfig, TSaasImage } from '@fleet/contracts';
import { USERS_NAMED, type IrmnVersionRow, type SaasImageRow } from './images.repository.js';

export const toIrmnVersion = (r: IrmnVersionRow): TIrmnVersion => ({
  id: r.id,
  name: r.name,
  default: r.isDefault,
  status: r.status as TIrmnVersion['status'],
});

/**
 * The stored jump-start config of an image as the contract has it: a field of
 * the wrong type reads as its empty value rather than failing the whole list.
 */
export function readJumpStartConfig(stored: Record<string, unknown> | null): TJumpStartConfig {
  const c = stored ?? {};
  const versions = typeof c.versions === 'object' && c.versions !== null ? (c.versions as Record<string, unknown>) : {};
  return {
    deployer: typeof c.deployer === 'string' && c.deployer !== '' ? c.deployer : null,
    enableSsl: c.enableSsl !== false,
    showInGrafana: c.showInGrafana === true,
    versions: Object.fromEntries(Object.entries(versions).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '')),
    libraryFiles: Array.isArray(c.libraryFiles) ? c.libraryFiles.filter((id): id is number => Number.isInteger(id)) : [],
  };
}

export function toSaasImage({ image, irmnVersion, accountCount }: { image: SaasImageRow; irmnVersion: string | null; accountCount: number }): TSaasImage {
  return {
    id: image.id,
    name: image.name,
    region: image.region,
    description: image.description,
    irmnVersion,
    official: image.official,
    active: image.active,
    jumpStart: image.jumpStart,
    jumpStartConfig: image.jumpStart ? readJumpStartConfig(image.jumpStartConfig) : null,
    osType: image.osType as TSaasImage['osType'],
    cloudImage: image.cloudImage,
    accountCount,
  };
}

export const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);

/**
 * Users of a record as an in-use refusal names them: "3 accounts (a, b and 1
 * more)", the first {@link USERS_NAMED} names, `unnamed` users (hidden from
 * the caller) only counted.
 */
export function countedUsers(noun: string, names: string[], unnamed = 0): string {
  const count = names.length + unnamed;
  const shown = names.slice(0, USERS_NAMED);
  const more = count - shown.length;
  const base = `${count} ${plural(count, noun)}`;
  if (shown.length === 0) return base;
  return `${base} (${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''})`;
}
