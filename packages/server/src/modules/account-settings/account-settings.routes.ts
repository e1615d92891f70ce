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
      schema: {
        operationId: 'pushAccountProperties',
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
      schema: {
        operationId: 'getInstanceSettings',
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
      schema: {
        operationId: 'pushInstanceSettings',
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
      schema: {
        operationId: 'pushLicenseSettings',
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
      schema: {
        operationId: 'pushBackupSettings',
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
      schema: {
        operationId: 'pushIdleSchedule',
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
