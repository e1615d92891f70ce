/**
 * License files (spec 1 §2 License Settings card, Download License saved as
 * '{urlFriendlyName} license.dat'; §7 `GET /accounts/{id}/files/license`): the
 * account's license section, and those of its add-on accounts (an add-on's
 * license extends its parent's, spec 1 §5), signed by the server with Ed25519
 * (`lib/license-signing.ts`). `GET /license/public-key` gives the key to verify
 * with; `npm run verify-license -- <file> <key.pem>` checks a file.
 *
 * Errors: 404 unknown or hidden account.
 *
 * The file is made when downloaded, from the stored sections. The account's key
 * pairs (keys zip, CAA key, license keys) are the account-keys module's.
 */
import { LICENSE_FORMAT, type TLicenseFile, type TLicensePayload } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { notFound } from '../../lib/problem.js';
import type { LicenseSigner } from '../../lib/license-signing.js';
import { selectAccountWithSettings } from '../account-settings/account-settings.repository.js';
import { readLicense } from '../account-settings/account-rules.js';
import * as repo from './license-files.repository.js';

const baseOf = (a: { instancePolicy: string; expirationTime: Date | null }) => ({ instancePolicy: a.instancePolicy, expirationTime: a.expirationTime?.toISOString() ?? null });

export interface LicenseFileService {
  /** The signed license file and its download name. */
  licenseFile(opts: { principal: Principal; accountId: number }): Promise<{ fileName: string; file: TLicenseFile }>;
  publicKey(): { keyId: string; publicKeyPem: string };
}

export function createLicenseFileService({ db, signer }: { db: Db; signer: LicenseSigner }): LicenseFileService {
  return {
    async licenseFile({ principal, accountId }) {
      const loaded = await selectAccountWithSettings(db, accountId, { hiddenClassIds: hiddenClassIds(principal) });
      if (!loaded) throw notFound(`Account ${accountId}`);
      const { account: a, settings } = loaded;
      const addOns = await repo.selectAddOnLicenses(db, a.id);
      const payload: TLicensePayload = {
        format: LICENSE_FORMAT,
        issuedAt: new Date().toISOString(),
        account: { id: a.id, name: a.name, urlFriendlyName: a.urlFriendlyName, classId: a.classId },
        license: readLicense(settings.licenseConfig, baseOf(a)),
        addOns: addOns.map((x) => ({ id: x.id, name: x.name, license: readLicense(x.licenseConfig ?? {}, baseOf(x)) })),
      };
      return { fileName: `${a.urlFriendlyName} license.dat`, file: { payload, signature: signer.sign(JSON.stringify(payload)), keyId: signer.keyId } };
    },
    publicKey: () => ({ keyId: signer.keyId, publicKeyPem: signer.publicKeyPem }),
  };
}
