/**
 * Account key pairs (spec 1 §2 Instance Settings card: Download Keys, Download
 * CAA Key, "not for add-on accounts"; §7 `POST /accounts/{id}/generate-keys`,
 * `GET /accounts/{id}/files/keys`, `/files/caa-key`, `/files/license-keys`;
 * DESIGN §5 secrets).
 *
 * What the keys are (the specification names the calls and files only; the
 * contracts file `account-keys.ts` has the file layouts):
 * - "keys" are the account's own encryption key set (`encryption`, RSA-2048),
 *   the set its instances use when machineConfig.keyType is Unique;
 * - the "CAA key" is the account's key for the CAA service (`caa`, Ed25519);
 * - the "license keys" are the pair the account's instance proves itself to
 *   the license service with (`license`, RSA-2048, `id_rsa`), shipped with the
 *   server's license-verification key so the instance can check `license.dat`.
 *
 * Rules:
 * - Private keys are PEM sealed with DATA_KEY (`lib/secret-box.ts`, AES-256-GCM);
 *   only the public key and its fingerprint are stored in clear.
 * - A missing pair is made on first download, in the download's transaction,
 *   and audited `GenerateAccountKeys` (params.reason 'first download');
 *   concurrent first downloads keep one pair (insert … on conflict do nothing).
 * - `generate` replaces the chosen pairs (all three by default) under a lock of
 *   the account row; audited `GenerateAccountKeys` with one change per kind
 *   (entityName 'AccountKey', propertyName '{kind}.fingerprint').
 * - Every download is audited `DownloadAccountKeys` (params file, kind,
 *   fingerprint) in the transaction that reads the key.
 *
 * Errors: 404 unknown, deleted or hidden (Customer Production without the
 * group) account; 422 add-on account (class 200), as the instance settings of
 * an add-on are 422. The routes add 403 without permission write.
 *
 * Known limitations: keyType is reported in `keys.json` but not acted on: a
 * Default or GenerateNewKeys account still downloads its own stored set, and
 * pushing GenerateNewKeys does not replace the set (generate-keys does). No
 * machine or deployer consumes the keys yet.
 */
import {
  ACCOUNT_KEY_FILES,
  ACCOUNT_KEY_KINDS,
  accountKeyFileName,
  CLASS_ADD_ON,
  KEY_TYPES,
  type TAccountKeyFile,
  type TAccountKeyKind,
  type TAccountKeySummary,
  type TAuditChange,
  type TGenerateKeysResponse,
  type TKeysManifest,
} from '@fleet/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { notFound, unprocessable } from '../../lib/problem.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { LicenseSigner } from '../../lib/license-signing.js';
import type { AuditService } from '../audit/audit.service.js';
import { generatePemKeyPair, type PemKeyPair } from './account-keys.crypto.js';
import { caaAccountText, keysZip, licenseKeysZip, type OpenKey } from './account-keys.files.js';
import * as repo from './account-keys.repository.js';

/** A file to send: its download name, MIME type and bytes. */
export interface KeyFileDownload {
  fileName: string;
  contentType: string;
  body: Buffer;
}

export interface AccountKeyService {
  /**
   * `POST /accounts/{id}/generate-keys`: new pairs of `kinds` (all three when
   * undefined), replacing the stored ones; answers their public facts in the
   * order of ACCOUNT_KEY_KINDS. Audited. 404 / 422 as in the module docstring.
   */
  generate(opts: { principal: Principal; accountId: number; kinds?: readonly TAccountKeyKind[] }): Promise<TGenerateKeysResponse>;
  /**
   * `GET /accounts/{id}/files/{file}`: the file holding the account's pair of
   * the file's kind, made first when missing. Audited. 404 / 422 as above.
   */
  download(opts: { principal: Principal; accountId: number; file: TAccountKeyFile }): Promise<KeyFileDownload>;
}

const summaryOf = (row: repo.AccountKeyRow): TAccountKeySummary => ({
  kind: row.kind as TAccountKeyKind,
  algorithm: row.algorithm,
  fingerprint: row.fingerprint,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
});

const keyTypeOf = (value: string | null): TKeysManifest['keyType'] =>
  (KEY_TYPES as readonly string[]).includes(value ?? '') ? (value as TKeysManifest['keyType']) : 'Default';

export function createAccountKeyService({
  db,
  audit,
  secrets,
  licenseSigner,
}: {
  db: Db;
  audit: AuditService;
  secrets: SecretBox;
  /** Its public key goes into the license keys' `config.json`. */
  licenseSigner: Pick<LicenseSigner, 'keyId' | 'publicKeyPem'>;
}): AccountKeyService {
  async function mustFind(tx: DbOrTx, principal: Principal, accountId: number, forUpdate = false): Promise<repo.KeyAccount> {
    const account = await repo.selectKeyAccount(tx, accountId, { hiddenClassIds: hiddenClassIds(principal), forUpdate });
    if (!account) throw notFound(`Account ${accountId}`);
    if (account.classId === CLASS_ADD_ON) throw unprocessable("Add-on accounts have no keys; the parent account's keys apply");
    return account;
  }

  const sealed = (accountId: number, kind: TAccountKeyKind, pair: PemKeyPair, createdBy: string): repo.NewAccountKey => ({
    accountId,
    kind,
    algorithm: pair.algorithm,
    publicKeyPem: pair.publicKeyPem,
    privateKeyEnc: secrets.seal(pair.privateKeyPem),
    fingerprint: pair.fingerprint,
    createdBy,
  });

  const auditAccount = (a: repo.KeyAccount) => [{ id: a.id, name: a.name, classId: a.classId }];

  /** The stored pair of `kind`, made (and audited) when the account has none. */
  async function keyFor(tx: DbOrTx, principal: Principal, account: repo.KeyAccount, kind: TAccountKeyKind): Promise<repo.AccountKeyRow> {
    const [stored] = await repo.selectKeys(tx, account.id, [kind]);
    if (stored) return stored;
    const pair = await generatePemKeyPair(kind);
    const inserted = await repo.insertKeyIfMissing(tx, sealed(account.id, kind, pair, principal.username));
    if (!inserted) {
      // Another first download of the same account won the insert: use its pair.
      const [other] = await repo.selectKeys(tx, account.id, [kind]);
      return other!;
    }
    await audit.record(tx, {
      action: 'GenerateAccountKeys',
      user: principal.username,
      accounts: auditAccount(account),
      params: { accountId: account.id, kinds: [kind], reason: 'first download' },
      changes: [{ entityName: 'AccountKey', propertyName: `${kind}.fingerprint`, oldValue: null, newValue: inserted.fingerprint }],
    });
    return inserted;
  }

  return {
    async generate({ principal, accountId, kinds }) {
      const chosen = ACCOUNT_KEY_KINDS.filter((k) => !kinds || kinds.includes(k));
      // Refuse unknown, hidden and add-on accounts before spending time on RSA.
      await mustFind(db, principal, accountId);
      const pairs = await Promise.all(chosen.map(async (kind) => ({ kind, pair: await generatePemKeyPair(kind) })));
      return db.transaction(async (tx) => {
        const account = await mustFind(tx, principal, accountId, true);
        const before = new Map((await repo.selectKeys(tx, accountId, chosen)).map((r) => [r.kind, r.fingerprint]));
        const rows: repo.AccountKeyRow[] = [];
        for (const { kind, pair } of pairs) rows.push(await repo.upsertKey(tx, sealed(accountId, kind, pair, principal.username)));
        const changes: TAuditChange[] = rows.map((r) => ({
          entityName: 'AccountKey',
          propertyName: `${r.kind}.fingerprint`,
          oldValue: before.get(r.kind) ?? null,
          newValue: r.fingerprint,
        }));
        await audit.record(tx, { action: 'GenerateAccountKeys', user: principal.username, accounts: auditAccount(account), params: { accountId, kinds: chosen }, changes });
        return { keys: rows.map(summaryOf) };
      });
    },

    async download({ principal, accountId, file }) {
      const kind = ACCOUNT_KEY_FILES[file];
      return db.transaction(async (tx) => {
        const account = await mustFind(tx, principal, accountId);
        const row = await keyFor(tx, principal, account, kind);
        const key: OpenKey = { summary: summaryOf(row), publicKeyPem: row.publicKeyPem, privateKeyPem: secrets.open(row.privateKeyEnc) };
        const fileName = accountKeyFileName(file, account.urlFriendlyName);
        const download: KeyFileDownload =
          file === 'keys'
            ? { fileName, contentType: 'application/zip', body: keysZip(account, key, keyTypeOf(account.keyType)) }
            : file === 'license-keys'
              ? { fileName, contentType: 'application/zip', body: licenseKeysZip(account, key, { keyId: licenseSigner.keyId, publicKeyPem: licenseSigner.publicKeyPem }) }
              : { fileName, contentType: 'text/plain; charset=utf-8', body: Buffer.from(caaAccountText(account, key), 'utf8') };
        await audit.record(tx, {
          action: 'DownloadAccountKeys',
          user: principal.username,
          accounts: auditAccount(account),
          params: { accountId, file, fileName, kind, fingerprint: row.fingerprint },
        });
        return download;
      });
    },
  };
}
