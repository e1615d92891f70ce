/**
 * One account and its sections (spec 1 §7 Accounts): `GET`/`PUT /accounts/{id}`,
 * `GET`/`PUT /accounts/{id}/instance-settings`, `PUT /accounts/{id}/license-settings`,
 * `/backup-settings` and `/idle-schedule`. Each PUT carries the section's version
 * (409 when stale) and needs permission write (the app's hook).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAccountDetail,
  ZAccountPropertiesResponse,
  ZBackupSettings,
  ZIdParams,
  ZIdleScheduleSettings,
  ZInstanceSettings,
  ZLicenseSettings,
  ZPushAccountPropertiesRequest,
  ZPushBackupSettingsRequest,
  ZPushIdleScheduleRequest,
  ZPushInstanceSettingsRequest,
  ZPushLicenseSettingsRequest,
} from '@fleet/contracts';

export const accountSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Account settings'];

  app.get(
    '/accounts/:id',
    {
      schema: {
        operationId: 'getAccount',
        description:
          'One account with every section (properties, license, instance, backup settings, idle schedules), its sites, class, parent and the version of each section (spec 1 §2 Edit account, §7).',
        tags,
        summary: 'An account with every section, its sites and section versions',
        params: ZIdParams,
        response: { 200: ZAccountDetail },
      },
    },
    (req) => app.services.accountSettings.detail({ principal: req.principal!, accountId: req.params.id }),
  );

  app.put(
    '/accounts/:id',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'pushAccountProperties',
        description:
          'Pushes the Account Properties card (spec 1 §2, §5): name, URL name, class, parent, customer, contact, billing and switches. The body carries the section version: 409 when it is stale or the URL name is used. Audited PushAccountProperties with field-level changes.',
        tags,
        summary: 'Push Account Properties (409 when the version is stale; audited PushAccountProperties)',
        params: ZIdParams,
        body: ZPushAccountPropertiesRequest,
        response: { 200: ZAccountPropertiesResponse },
      },
    },
    (req) => app.services.accountSettings.pushProperties({ principal: req.principal!, accountId: req.params.id, body: req.body }),
  );

  app.get(
    '/accounts/:id/instance-settings',
    {
      config: { problems: [422] },
      schema: {
        operationId: 'getInstanceSettings',
        description:
          'The instance settings (machineConfig) of the account with their version (spec 1 §2 Instance Settings card). Add-on accounts have none: 422.',
        tags,
        summary: 'Instance settings (machineConfig) with their version; 422 for add-on accounts',
        params: ZIdParams,
        response: { 200: ZInstanceSettings },
      },
    },
    (req) => app.services.accountSettings.instanceSettings({ principal: req.principal!, accountId: req.params.id }),
  );

  app.put(
    '/accounts/:id/instance-settings',
    {
      config: { problems: [409, 422] },
      schema: {
        operationId: 'pushInstanceSettings',
        description:
          'Pushes the Instance Settings card (spec 1 §2, §5): region, image, SSL and sample data are locked once set. 409 when the version is stale, 422 for add-on accounts. Audited PushInstanceSettings.',
        tags,
        summary: 'Push Instance Settings (region, image, SSL and sample data locked once set)',
        params: ZIdParams,
        body: ZPushInstanceSettingsRequest,
        response: { 200: ZInstanceSettings },
      },
    },
    (req) => app.services.accountSettings.pushInstance({ principal: req.principal!, accountId: req.params.id, body: req.body }),
  );

  app.put(
    '/accounts/:id/license-settings',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'pushLicenseSettings',
        description:
          'Pushes the License Settings card (spec 1 §2, §5); the AllInOne instance policy forces maxSites 1. 409 when the version is stale. Audited PushLicenseSettings.',
        tags,
        summary: 'Push License Settings (AllInOne forces maxSites 1)',
        params: ZIdParams,
        body: ZPushLicenseSettingsRequest,
        response: { 200: ZLicenseSettings },
      },
    },
    (req) => app.services.accountSettings.pushLicense({ principal: req.principal!, accountId: req.params.id, body: req.body }),
  );

  app.put(
    '/accounts/:id/backup-settings',
    {
      config: { problems: [409, 422] },
      schema: {
        operationId: 'pushBackupSettings',
        description:
          'Pushes the Backup Settings card (spec 1 §2, §5): backup times, weekly and monthly days, retention and end-of-life actions; invalid and duplicate times are dropped. 409 when the version is stale, 422 for add-on accounts. Audited PushBackupSettings.',
        tags,
        summary: 'Push Backup Settings (invalid and duplicate times dropped)',
        params: ZIdParams,
        body: ZPushBackupSettingsRequest,
        response: { 200: ZBackupSettings },
      },
    },
    (req) => app.services.accountSettings.pushBackup({ principal: req.principal!, accountId: req.params.id, body: req.body }),
  );

  app.put(
    '/accounts/:id/idle-schedule',
    {
      config: { problems: [409, 422] },
      schema: {
        operationId: 'pushIdleSchedule',
        description:
          'Pushes the Idle Schedule card (spec 1 §2, §5): when machines stop and for how long. 409 when the version is stale, 422 for add-on accounts. Audited PushIdleSchedule.',
        tags,
        summary: 'Push Idle Schedule',
        params: ZIdParams,
        body: ZPushIdleScheduleRequest,
        response: { 200: ZIdleScheduleSettings },
      },
    },
    (req) => app.services.accountSettings.pushIdle({ principal: req.principal!, accountId: req.params.id, body: req.body }),
  );
};
