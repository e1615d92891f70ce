/**
 * Signing of license files (spec 1 §2 Download License): Ed25519 with a key pair
 * derived from `DATA_KEY` by HKDF-SHA256, so every API process of a deployment
 * signs with the same key and nothing more needs storing. `keyId` is the first 16
 * hex characters of the SHA-256 of the public key (DER).
 */
import { createHash, createPrivateKey, createPublicKey, hkdfSync, sign, verify, type KeyObject } from 'node:crypto';

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface LicenseSigner {
  keyId: string;
  publicKeyPem: string;
  /** Base64 Ed25519 signature of the UTF-8 bytes of `text`. */
  sign(text: string): string;
}

export function createLicenseSigner(dataKeyHex: string): LicenseSigner {
  const seed = Buffer.from(hkdfSync('sha256', Buffer.from(dataKeyHex, 'hex'), Buffer.alloc(0), 'fleet-license-signing-v1', 32));
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return {
    keyId: createHash('sha256').update(der).digest('hex').slice(0, 16),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64'),
  };
}

/** Checks a license file's signature against a public key (PEM). */
export function verifyLicenseSignature(file: { payload: unknown; signature: string }, publicKey: string | KeyObject): boolean {
  return verify(null, Buffer.from(JSON.stringify(file.payload), 'utf8'), publicKey, Buffer.from(file.signature, 'base64'));
}
