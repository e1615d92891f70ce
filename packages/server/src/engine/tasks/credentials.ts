/**
 * Credentials of a launched instance (spec 2 §2.3 Credential): an RDP password
 * of 20 characters (upper and lower case letters, digits and symbols, at least
 * one of each) and a 2048-bit RSA private key in PEM (PKCS#1, the `id_rsa`
 * format). What EC2 hands out at launch as the key pair and the Windows password.
 */
import { generateKeyPair, randomInt } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

const CLASSES = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!#%+-=?@_'];

export function newRdpPassword(length = 20): string {
  const all = CLASSES.join('');
  const chars = CLASSES.map((c) => c[randomInt(c.length)]!);
  while (chars.length < length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** A new credential; the key is generated off the event loop (libuv thread pool). */
export async function newCredential(): Promise<{ rdpPassword: string; sshPrivateKey: string }> {
  const { privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return { rdpPassword: newRdpPassword(), sshPrivateKey: privateKey };
}
