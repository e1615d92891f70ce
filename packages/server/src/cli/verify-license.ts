/**
 * Verifies a license file downloaded from the console (spec 1 §2 Download License).
 *
 *   npm run verify-license -- "<urlFriendlyName> license.dat" license-key.pem
 *
 * The key is the PEM of `GET /api/v1/license/public-key` (`publicKeyPem`). Prints
 * what the file licenses and exits 0 when the signature holds, 1 otherwise.
 */
import { readFileSync } from 'node:fs';
import { ZLicenseFile } from '@fleet/contracts';
import { verifyLicenseSignature } from '../lib/license-signing.js';

const [file, keyFile] = process.argv.slice(2);
if (!file || !keyFile) {
  console.error('usage: npm run verify-license -- <license.dat> <public-key.pem>');
  process.exit(2);
}
const parsed = ZLicenseFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
if (!parsed.success) {
  console.error('not a license file');
  process.exit(1);
}
const valid = verifyLicenseSignature(parsed.data, readFileSync(keyFile, 'utf8'));
const { account, issuedAt, addOns } = parsed.data.payload;
console.log(`${valid ? 'valid' : 'INVALID'}: ${account.name} (${account.urlFriendlyName}), issued ${issuedAt}, ${addOns.length} add-on(s), key ${parsed.data.keyId}`);
process.exit(valid ? 0 : 1);
