/**
 * The license file of an account (spec 1 §2 License Settings card: Download
 * License saved as '{urlFriendlyName} license.dat'; §7 `GET /accounts/{id}/files/license`).
 *
 * The file is JSON: `payload` (what is licensed), `signature` (Ed25519 over the
 * UTF-8 bytes of `JSON.stringify(payload)`, base64) and `keyId`. The server's
 * public key is `GET /license/public-key` (PEM); `npm run verify-license -- <file>
 * <public key file>` checks a file.
 */
import { z } from 'zod';
import { ZLicenseConfig } from './account-sections.js';

export const LICENSE_FORMAT = 'fleet-license-v1' as const;

export const ZLicensePayload = z.object({
  format: z.literal(LICENSE_FORMAT),
  issuedAt: z.string(),
  account: z.object({ id: z.number().int(), name: z.string(), urlFriendlyName: z.string(), classId: z.number().int() }),
  license: ZLicenseConfig,
  /** Add-on accounts of this account: their licenses extend this one (spec 1 §5 add-on push confirmation). */
  addOns: z.array(z.object({ id: z.number().int(), name: z.string(), license: ZLicenseConfig })),
});
export type TLicensePayload = z.infer<typeof ZLicensePayload>;

export const ZLicenseFile = z.object({ payload: ZLicensePayload, signature: z.string(), keyId: z.string() });
export type TLicenseFile = z.infer<typeof ZLicenseFile>;

export const ZLicensePublicKey = z.object({ keyId: z.string(), publicKeyPem: z.string() });
