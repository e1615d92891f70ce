/**
 * Send Creation Email (spec 1 §2 Account Properties card, §7
 * `POST /accounts/{id}/send-creation-mail`, §8): a real email to the account's
 * contact with the launcher URL, the site URLs, the license expiry and the
 * maintainer, through the mailer (SMTP or the outbox folder). Audited
 * SendCreationMail once sent.
 *
 * Errors: 404 unknown or hidden account; 422 no contact email; 502 when the mail
 * server refuses the message or cannot be reached.
 */
import { CLASS_ADD_ON, launcherUrl, type TSendCreationMailResponse } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { HttpProblem, notFound, unprocessable } from '../../lib/problem.js';
import type { Mailer, MailMessage } from '../../lib/mailer.js';
import type { AuditService } from '../audit/audit.service.js';
import { selectAccountWithSettings, selectSitesOf } from '../account-settings/account-settings.repository.js';
import { readMachineConfig } from '../account-settings/account-rules.js';

export interface AccountMailService {
  sendCreationMail(opts: { principal: Principal; accountId: number }): Promise<TSendCreationMailResponse>;
}

/** The creation email of an account (plain text). */
export function creationMail(a: {
  name: string;
  contactName: string;
  contactEmail: string;
  maintainer: string;
  expirationTime: Date | null;
  launcherUrl: string | null;
  sites: { name: string; url: string }[];
}): MailMessage {
  const lines = [
    `Hello ${a.contactName || a.contactEmail},`,
    '',
    `Your account "${a.name}" has been created.`,
    '',
    ...(a.launcherUrl ? [`Launcher: ${a.launcherUrl}`] : []),
    ...(a.sites.length > 0 ? ['Sites:', ...a.sites.map((s) => `  - ${s.name}: ${s.url}`)] : []),
    `License expires: ${a.expirationTime ? a.expirationTime.toISOString().slice(0, 10) : 'never'}`,
    '',
    `Questions? Write to ${a.maintainer}.`,
    '',
    'Regards,',
    'The DevOps team',
  ];
  return { to: { name: a.contactName, address: a.contactEmail }, subject: `Your account ${a.name} has been created`, text: `${lines.join('\n')}\n` };
}

export function createAccountMailService({ db, audit, mailer }: { db: Db; audit: AuditService; mailer: Mailer }): AccountMailService {
  return {
    async sendCreationMail({ principal, accountId }) {
      const loaded = await selectAccountWithSettings(db, accountId, { hiddenClassIds: hiddenClassIds(principal) });
      if (!loaded) throw notFound(`Account ${accountId}`);
      const { account: a, settings } = loaded;
      if (!a.contactEmail) throw unprocessable(`Account ${a.name} has no contact email`);
      const addOn = a.classId === CLASS_ADD_ON;
      const ssl = addOn ? true : readMachineConfig(settings.machineConfig, {}).enableSsl;
      const sites = addOn ? [] : await selectSitesOf(db, a.id);
      const message = creationMail({
        ...a,
        launcherUrl: addOn ? null : launcherUrl(a.urlFriendlyName, ssl),
        sites: sites.map((s) => ({ name: s.name, url: `${ssl ? 'https' : 'http'}://${s.domainName}:${s.port}` })),
      });
      let sent;
      try {
        sent = await mailer.send(message);
      } catch (error) {
        throw new HttpProblem(502, 'Bad Gateway', `The creation email could not be sent: ${(error as Error).message}`);
      }
      await db.transaction((tx) =>
        audit.record(tx, {
          action: 'SendCreationMail',
          user: principal.username,
          accounts: [{ id: a.id, name: a.name, classId: a.classId }],
          params: { accountId: a.id, to: a.contactEmail, messageId: sent.messageId, delivery: sent.delivery },
        }),
      );
      return { messageId: sent.messageId, to: a.contactEmail, delivery: sent.delivery };
    },
  };
}
