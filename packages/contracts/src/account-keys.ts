/**
 * Key pairs of an account (spec 1 §2 Instance Settings card: Download Keys and
 * Download CAA Key, not for add-on accounts; §7 `POST /accounts/{id}/generate-keys`
 * and the blob downloads `/files/keys`, `/files/caa-key`, `/files/license-keys`;
 * §8 'Error occurred downloading license keys'; DESIGN §5 secrets).
 *
 * An account holds one key pair of each kind:
 * - `encryption` ("keys"): RSA-2048, the account's own encryption key set that
 *   its instances use when machineConfig.keyType is Unique (GenerateNewKeys asks
 *   for a new set). Download Keys: '{urlFriendlyName} keys.zip' with
 *   `private.pem` (PKCS#8), `public.pem` (SPKI) and `keys.json` ({@link TKeysManifest}).
 * - `caa`: Ed25519, the key the account's instance signs its calls to the CAA
 *   service with. Download CAA Key: '{urlFriendlyName} caa-account.txt', a text
 *   file of `name: value` header lines, then the private key (PKCS#8 PEM) and the
 *   public key (SPKI PEM).
 * - `license`: RSA-2048, the key pair with which the account's instance proves
 *   itself to the license service. '{urlFriendlyName} license keys.zip' with
 *   `id_rsa` (PKCS#1 PEM), `id_rsa.pub` (SPKI PEM) and `config.json`
 *   ({@link TLicenseKeysConfig}: the account, the key's fingerprint, and the
 *   server's license-verification key that checks `license.dat`).
 *
 * Every download needs permission `write` (it reveals private keys) and is
 * audited (`DownloadAccountKeys`); a missing pair is made on first download
 * (audited `GenerateAccountKeys`). Errors: 403 without write, 404 unknown or
 * hidden account, 422 add-on account (class 200) — an add-on uses its parent's keys.
 */
import { z } from 'zod';
import { KEY_TYPES } from './account-sections.js';

export const ACCOUNT_KEY_KINDS = ['encryption', 'caa', 'license'] as const;
export const ZAccountKeyKind = z.enum(ACCOUNT_KEY_KINDS);
export type TAccountKeyKind = z.infer<typeof ZAccountKeyKind>;

/** The downloads of §7 and the key kind each holds. */
export const ACCOUNT_KEY_FILES = { keys: 'encryption', 'caa-key': 'caa', 'license-keys': 'license' } as const satisfies Record<string, TAccountKeyKind>;
export type TAccountKeyFile = keyof typeof ACCOUNT_KEY_FILES;

/** Download names of the key files (spec 1 §7 "a keys zip, a caa-account text file"). */
export const accountKeyFileName = (file: TAccountKeyFile, urlFriendlyName: string): string =>
  file === 'keys' ? `${urlFriendlyName} keys.zip` : file === 'caa-key' ? `${urlFriendlyName} caa-account.txt` : `${urlFriendlyName} license keys.zip`;

/** Entry names inside the zips. */
export const KEYS_ZIP_ENTRIES = { privateKey: 'private.pem', publicKey: 'public.pem', manifest: 'keys.json' } as const;
export const LICENSE_KEYS_ZIP_ENTRIES = { privateKey: 'id_rsa', publicKey: 'id_rsa.pub', config: 'config.json' } as const;

/** Public facts of one key pair; never the private key. */
export const ZAccountKeySummary = z.object({
  kind: ZAccountKeyKind,
  /** `rsa-2048` or `ed25519`. */
  algorithm: z.string(),
  /** SHA-256 of the public key's SPKI DER, lowercase hex (64 characters). */
  fingerprint: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type TAccountKeySummary = z.infer<typeof ZAccountKeySummary>;

/**
 * `POST /accounts/{id}/generate-keys` body: the kinds to replace, all three when
 * left out. The body itself may be empty (`{}`).
 */
export const ZGenerateKeysRequest = z.object({
  kinds: z.array(ZAccountKeyKind).min(1, 'Choose at least one key kind').max(ACCOUNT_KEY_KINDS.length).optional(),
});
export type TGenerateKeysRequest = z.infer<typeof ZGenerateKeysRequest>;

/** `POST /accounts/{id}/generate-keys` answer: the new pairs, in the order of {@link ACCOUNT_KEY_KINDS}. */
export const ZGenerateKeysResponse = z.object({ keys: z.array(ZAccountKeySummary) });
export type TGenerateKeysResponse = z.infer<typeof ZGenerateKeysResponse>;

const ZKeyAccount = z.object({ id: z.number().int(), name: z.string(), urlFriendlyName: z.string() });

/** `keys.json` in '{urlFriendlyName} keys.zip'. */
export const ZKeysManifest = z.object({
  account: ZKeyAccount,
  /** machineConfig.keyType at download time (spec 1 §2 encryption keys). */
  keyType: z.enum(KEY_TYPES),
  key: ZAccountKeySummary,
});
export type TKeysManifest = z.infer<typeof ZKeysManifest>;

/** `config.json` in '{urlFriendlyName} license keys.zip'. */
export const ZLicenseKeysConfig = z.object({
  account: ZKeyAccount,
  key: ZAccountKeySummary,
  /** The server's key that verifies '{urlFriendlyName} license.dat' (see `license.ts`). */
  licenseVerification: z.object({ keyId: z.string(), publicKeyPem: z.string() }),
});
export type TLicenseKeysConfig = z.infer<typeof ZLicenseKeysConfig>;
