/**
 * Key pairs of accounts made with node:crypto (spec 1 §2 Download Keys /
 * Download CAA Key, §7 generate-keys; DESIGN §5): RSA-2048 for the `encryption`
 * and `license` kinds, Ed25519 for `caa`. Keys are PEM: the private key PKCS#8,
 * the public key SPKI. The fingerprint is the SHA-256 of the SPKI DER, hex.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPair } from 'node:crypto';
import type { TAccountKeyKind } from '@fleet/contracts';

/** The algorithm of each kind, as stored in `account_keys.algorithm`. */
const KEY_ALGORITHMS = { encryption: 'rsa-2048', caa: 'ed25519', license: 'rsa-2048' } as const satisfies Record<TAccountKeyKind, string>;

/** RSA modulus length, bits. */
const RSA_BITS = 2048;

export interface PemKeyPair {
  algorithm: string;
  /** SPKI PEM. */
  publicKeyPem: string;
  /** PKCS#8 PEM (unencrypted: it is sealed with DATA_KEY before it is stored). */
  privateKeyPem: string;
  /** SHA-256 of the SPKI DER, lowercase hex. */
  fingerprint: string;
}

/** SHA-256 hex of a public key's SPKI DER. Throws on a malformed PEM. */
function fingerprintOf(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex');
}

/** A new key pair of `kind` (RSA generation takes some tens of milliseconds, off the event loop). */
export async function generatePemKeyPair(kind: TAccountKeyKind): Promise<PemKeyPair> {
  const algorithm = KEY_ALGORITHMS[kind];
  const { publicKey, privateKey } = await new Promise<{ publicKey: string; privateKey: string }>((resolve, reject) => {
    const done = (error: Error | null, publicKey: string, privateKey: string) => (error ? reject(error) : resolve({ publicKey, privateKey }));
    const publicKeyEncoding = { type: 'spki', format: 'pem' } as const;
    const privateKeyEncoding = { type: 'pkcs8', format: 'pem' } as const;
    if (algorithm === 'ed25519') generateKeyPair('ed25519', { publicKeyEncoding, privateKeyEncoding }, done);
    else generateKeyPair('rsa', { modulusLength: RSA_BITS, publicKeyEncoding, privateKeyEncoding }, done);
  });
  return { algorithm, publicKeyPem: publicKey, privateKeyPem: privateKey, fingerprint: fingerprintOf(publicKey) };
}

/** An RSA private key (PKCS#8 PEM) as PKCS#1 PEM ('BEGIN RSA PRIVATE KEY'), the `id_rsa` format. */
export function toPkcs1Pem(privateKeyPem: string): string {
  return createPrivateKey(privateKeyPem).export({ type: 'pkcs1', format: 'pem' }).toString();
}
