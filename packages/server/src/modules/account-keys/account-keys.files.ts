/**
 * The downloaded key files (spec 1 §7 blob downloads; names and entries in
 * `@fleet/contracts` account-keys.ts): two zips made with fflate and the CAA
 * key text file. Pure functions of decrypted keys; nothing here touches the
 * database.
 */
import { strToU8, zipSync } from 'fflate';
import {
  KEYS_ZIP_ENTRIES,
  LICENSE_KEYS_ZIP_ENTRIES,
  type TAccountKeySummary,
  type TKeysManifest,
  type TLicenseKeysConfig,
} from '@fleet/contracts';
import { toPkcs1Pem } from './account-keys.crypto.js';

export interface KeyFileAccount {
  id: number;
  name: string;
  urlFriendlyName: string;
}

/** A decrypted pair and its public facts. */
export interface OpenKey {
  summary: TAccountKeySummary;
  publicKeyPem: string;
  privateKeyPem: string;
}

/** Deflate level of the zips (1 fastest to 9 smallest). */
const ZIP_LEVEL = 6;

const zip = (entries: Record<string, string>, mtime: Date): Buffer =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(entries).map(([name, text]) => [name, strToU8(text)])), { level: ZIP_LEVEL, mtime }));

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** '{urlFriendlyName} keys.zip': `private.pem`, `public.pem`, `keys.json`. */
export function keysZip(account: KeyFileAccount, key: OpenKey, keyType: TKeysManifest['keyType']): Buffer {
  const manifest: TKeysManifest = { account: { id: account.id, name: account.name, urlFriendlyName: account.urlFriendlyName }, keyType, key: key.summary };
  return zip(
    {
      [KEYS_ZIP_ENTRIES.privateKey]: key.privateKeyPem,
      [KEYS_ZIP_ENTRIES.publicKey]: key.publicKeyPem,
      [KEYS_ZIP_ENTRIES.manifest]: json(manifest),
    },
    new Date(key.summary.createdAt),
  );
}

/** '{urlFriendlyName} license keys.zip': `id_rsa` (PKCS#1), `id_rsa.pub` (SPKI), `config.json`. */
export function licenseKeysZip(account: KeyFileAccount, key: OpenKey, licenseVerification: TLicenseKeysConfig['licenseVerification']): Buffer {
  const config: TLicenseKeysConfig = {
    account: { id: account.id, name: account.name, urlFriendlyName: account.urlFriendlyName },
    key: key.summary,
    licenseVerification,
  };
  return zip(
    {
      [LICENSE_KEYS_ZIP_ENTRIES.privateKey]: toPkcs1Pem(key.privateKeyPem),
      [LICENSE_KEYS_ZIP_ENTRIES.publicKey]: key.publicKeyPem,
      [LICENSE_KEYS_ZIP_ENTRIES.config]: json(config),
    },
    new Date(key.summary.createdAt),
  );
}

/**
 * '{urlFriendlyName} caa-account.txt': `name: value` lines (account-id,
 * account, account-name, algorithm, fingerprint, created), a blank line, the
 * private key PEM, then the public key PEM.
 */
export function caaAccountText(account: KeyFileAccount, key: OpenKey): string {
  const header = [
    ['account-id', String(account.id)],
    ['account', account.urlFriendlyName],
    ['account-name', account.name.replace(/[\r\n]+/g, ' ')],
    ['algorithm', key.summary.algorithm],
    ['fingerprint', key.summary.fingerprint],
    ['created', key.summary.createdAt],
  ];
  return `${header.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${key.privateKeyPem.trimEnd()}\n${key.publicKeyPem.trimEnd()}\n`;
}
