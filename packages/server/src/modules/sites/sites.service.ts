/**
 * An account's sites and services (spec 1 §2 Sites and Services tabs, §3 Site,
 * Service; §8 'Site updated'): list and edit sites (audited UpdateSite), and the
 * software status of the account.
 *
 * Site rules: name required; URL name derived from the name when blank, unique in
 * the account (409); the domain name is one DNS label under the provider's fixed
 * domain (`{label}.fleet.example.net`, the label defaulting to
 * `{site url name}-{account url name}`), unique among live accounts (409); port
 * 1 to 65535. Add-on accounts have no sites (422 on edit, an empty list on read).
 *
 * Software status: one service per component that a live machine of the account
 * runs (`currentVersions`) or should run (`desiredVersions`), in the order of
 * spec 1 §3. Its status is Pending when no machine runs it yet, Stopped when none
 * of the machines running it has a running cloud instance, Degraded when only
 * some of the machines that should run it do, Outdated when all run it but some
 * run another version than desired, else Running. `version` is the version when
 * every machine runs the same one.
 *
 * Known limitations: editing a site does not rewrite the component configs of its
 * machines; the cloud instance status is read as stored (the engine keeps it current).
 */
import {
  CLASS_ADD_ON,
  componentLabel,
  CONFIG_COMPONENTS,
  PROVIDER_DOMAIN,
  siteDomainName,
  siteSubdomain,
  toUrlFriendlyName,
  URL_NAME_MESSAGE,
  URL_NAME_PATTERN,
  type TAccountService,
  type TFieldError,
  type TSite,
  type TSiteFields,
} from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { badRequest, conflict, notFound, unprocessable } from '../../lib/problem.js';
import { diffChanges, type AuditService } from '../audit/audit.service.js';
import * as repo from './sites.repository.js';

const DOMAIN_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A site's URL name and full domain name from what a form sent (see the module
 * docstring), or field errors. `prefix` names the fields inside a larger payload.
 */
export function resolveSiteNames(
  site: Pick<TSiteFields, 'name' | 'urlFriendlyName' | 'domainName'>,
  accountUrlFriendlyName: string,
  prefix = '',
): { urlFriendlyName: string; domainName: string; errors: TFieldError[] } {
  const errors: TFieldError[] = [];
  const urlFriendlyName = site.urlFriendlyName || toUrlFriendlyName(site.name);
  if (!URL_NAME_PATTERN.test(urlFriendlyName)) {
    errors.push({ propertyName: `${prefix}urlFriendlyName`, errorMessage: URL_NAME_MESSAGE, attemptedValue: urlFriendlyName });
  }
  const suffix = `.${PROVIDER_DOMAIN}`;
  const sent = site.domainName.toLowerCase();
  const label = (sent.endsWith(suffix) ? sent.slice(0, -suffix.length) : sent) || siteSubdomain(urlFriendlyName, accountUrlFriendlyName);
  if (!DOMAIN_LABEL.test(label)) {
    errors.push({
      propertyName: `${prefix}domainName`,
      errorMessage: `Domain name must be one label of lowercase letters, digits and hyphens under ${suffix}`,
      attemptedValue: site.domainName,
    });
  }
  return { urlFriendlyName, domainName: siteDomainName(label), errors };
}

export interface SiteService {
  /** `GET /accounts/{id}/sites`. */
  list(opts: { principal: Principal; accountId: number }): Promise<TSite[]>;
  /** `PUT /accounts/{id}/sites/{siteId}`: the updated site. */
  update(opts: { principal: Principal; accountId: number; siteId: number; body: TSiteFields }): Promise<TSite>;
  /** `GET /accounts/{id}/software-status`. */
  softwareStatus(opts: { principal: Principal; accountId: number }): Promise<TAccountService[]>;
}

export function createSiteService({ db, audit }: { db: Db; audit: AuditService }): SiteService {
  const visible = async (principal: Principal, accountId: number) => {
    const account = await repo.selectVisibleAccount(db, accountId, hiddenClassIds(principal));
    if (!account) throw notFound(`Account ${accountId}`);
    return account;
  };

  return {
    async list({ principal, accountId }) {
      const account = await visible(principal, accountId);
      return account.classId === CLASS_ADD_ON ? [] : repo.selectSites(db, accountId);
    },

    async update({ principal, accountId, siteId, body }) {
      return db.transaction(async (tx) => {
        const account = await repo.selectVisibleAccount(tx, accountId, hiddenClassIds(principal), true);
        if (!account) throw notFound(`Account ${accountId}`);
        if (account.classId === CLASS_ADD_ON) throw unprocessable('Add-on accounts have no sites');
        const site = await repo.selectSiteForUpdate(tx, accountId, siteId);
        if (!site) throw notFound(`Site ${siteId} of account ${accountId}`);
        const names = resolveSiteNames(body, account.urlFriendlyName);
        if (names.errors.length > 0) throw badRequest(names.errors);
        const next = { name: body.name, urlFriendlyName: names.urlFriendlyName, domainName: names.domainName, port: body.port };
        const sameUrl = await repo.selectSiteByUrlName(tx, accountId, next.urlFriendlyName, siteId);
        if (sameUrl) throw conflict(`Site URL name '${next.urlFriendlyName}' is already used by site ${sameUrl.name} of this account`);
        if (await repo.selectSiteByDomain(tx, next.domainName, siteId)) throw conflict(`Domain name '${next.domainName}' is already used by another site`);
        await repo.updateSite(tx, siteId, next);
        const { id: _id, ...before } = site;
        await audit.record(tx, {
          action: 'UpdateSite',
          user: principal.username,
          accounts: [{ id: account.id, name: account.name, classId: account.classId }],
          params: { accountId, siteId },
          changes: diffChanges('Site', before, next),
        });
        return { id: siteId, ...next };
      });
    },

    async softwareStatus({ principal, accountId }) {
      const account = await visible(principal, accountId);
      if (account.classId === CLASS_ADD_ON) return [];
      const rows = await repo.selectMachineVersions(db, accountId);
      const keys = new Set(rows.flatMap((m) => [...Object.keys(m.currentVersions), ...Object.keys(m.desiredVersions)]));
      const order = [...CONFIG_COMPONENTS, ...[...keys].filter((k) => !(CONFIG_COMPONENTS as readonly string[]).includes(k)).sort()];
      return order
        .filter((key) => keys.has(key))
        .map((key): TAccountService => {
          const should = rows.filter((m) => key in m.currentVersions || key in m.desiredVersions);
          const installed = should.filter((m) => key in m.currentVersions);
          const running = installed.filter((m) => m.instanceStatus === 'running');
          const versions = new Set(installed.map((m) => m.currentVersions[key]));
          const status: TAccountService['status'] =
            installed.length === 0
              ? 'Pending'
              : running.length === 0
                ? 'Stopped'
                : running.length < should.length
                  ? 'Degraded'
                  : should.some((m) => key in m.desiredVersions && m.desiredVersions[key] !== m.currentVersions[key])
                    ? 'Outdated'
                    : 'Running';
          return {
            name: componentLabel(key),
            component: key,
            status,
            version: versions.size === 1 ? ([...versions][0] ?? null) : null,
            machines: should.length,
          };
        });
    },
  };
}
