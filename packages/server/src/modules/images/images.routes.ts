/**
 * The image catalogues (spec 3 §7 IRMN versions, Cloud): `GET`/`POST /irmn-versions`,
 * `GET`/`PUT`/`DELETE /irmn-versions/{id}`, `GET /lookup/irmn-version-statuses`,
 * `GET`/`POST /cloud/images`, `GET`/`PUT`/`DELETE /cloud/images/{id}` (SaaS images),
 * `GET`/`DELETE /cloud/caa-images` (images of the cloud provider). Mutations need
 * `write` (the app's hook) and are audited.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCloudImagesResponse,
  ZDeleteCloudImageQuery,
  ZIdParams,
  ZIrmnVersion,
  ZIrmnVersionStatusesResponse,
  ZIrmnVersionsResponse,
  ZListCloudImagesQuery,
  ZListSaasImagesQuery,
  ZOk,
  ZSaasImage,
  ZSaasImagesResponse,
  ZSaveIrmnVersionRequest,
  ZSaveSaasImageRequest,
} from '@fleet/contracts';

export const imageRoutes: FastifyPluginAsyncZod = async (app) => {
  const irmnTags = ['IRMN versions'];
  const cloudTags = ['Cloud'];

  app.get(
    '/irmn-versions',
    {
      schema: {
        operationId: 'listIrmnVersions',
        description: 'IRMN versions with their default tick and status, by name (spec 3 §2.2, §7 IRMN versions).',
        tags: irmnTags,
        summary: 'IRMN versions',
        response: { 200: ZIrmnVersionsResponse },
      },
    },
    () => app.services.images.irmnVersions(),
  );
  app.get(
    '/irmn-versions/:id',
    {
      schema: {
        operationId: 'getIrmnVersion',
        description: 'One IRMN version (spec 3 §7 IRMN versions).',
        tags: irmnTags,
        summary: 'One IRMN version',
        params: ZIdParams,
        response: { 200: ZIrmnVersion },
      },
    },
    (req) => app.services.images.irmnVersion(req.params.id),
  );
  app.get(
    '/lookup/irmn-version-statuses',
    {
      schema: {
        operationId: 'listIrmnVersionStatuses',
        description: 'The statuses of an IRMN version: InDevelopment, Planned, Released (spec 3 §2.2, §7 IRMN versions).',
        tags: irmnTags,
        summary: 'IRMN version statuses',
        response: { 200: ZIrmnVersionStatusesResponse },
      },
    },
    () => app.services.images.irmnVersionStatuses(),
  );
  app.post(
    '/irmn-versions',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'createIrmnVersion',
        description:
          'Creates an IRMN version (name, status, default). A default takes the tick from the previous default. 409 when the name is used. Audited (spec 3 §2.2, §7 IRMN versions).',
        tags: irmnTags,
        summary: 'Create an IRMN version (audited)',
        body: ZSaveIrmnVersionRequest,
        response: { 200: ZIrmnVersion },
      },
    },
    (req) => app.services.images.createIrmnVersion({ principal: req.principal!, body: req.body }),
  );
  app.put(
    '/irmn-versions/:id',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'updateIrmnVersion',
        description:
          'Updates an IRMN version: name, status, default. A default takes the tick from the previous default. 409 when the name is used. Audited with field-level changes (spec 3 §2.2, §7 IRMN versions).',
        tags: irmnTags,
        summary: 'Update an IRMN version (audited)',
        params: ZIdParams,
        body: ZSaveIrmnVersionRequest,
        response: { 200: ZIrmnVersion },
      },
    },
    (req) => app.services.images.updateIrmnVersion({ principal: req.principal!, id: req.params.id, body: req.body }),
  );
  app.delete(
    '/irmn-versions/:id',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'deleteIrmnVersion',
        description:
          'Deletes an IRMN version. 409, naming them, while a SaaS image or a component or deployer config uses it. Audited (spec 3 §2.2, §7 IRMN versions).',
        tags: irmnTags,
        summary: 'Delete an IRMN version not in use (audited)',
        params: ZIdParams,
        response: { 200: ZOk },
      },
    },
    (req) => app.services.images.deleteIrmnVersion({ principal: req.principal!, id: req.params.id }),
  );

  app.get(
    '/cloud/images',
    {
      schema: {
        operationId: 'listSaasImages',
        description:
          'SaaS images with region, IRMN version, flags and usage count (live accounts using the image), by name; `search` matches the name case-insensitively, `region` is a cloud code (spec 3 §2.3, §7 Cloud).',
        tags: cloudTags,
        summary: 'SaaS images, searched and filtered by region',
        querystring: ZListSaasImagesQuery,
        response: { 200: ZSaasImagesResponse },
      },
    },
    (req) => app.services.images.saasImages({ principal: req.principal!, query: req.query }),
  );
  app.get(
    '/cloud/images/:id',
    {
      schema: {
        operationId: 'getSaasImage',
        description: 'One SaaS image (spec 3 §2.3, §7 Cloud).',
        tags: cloudTags,
        summary: 'One SaaS image',
        params: ZIdParams,
        response: { 200: ZSaasImage },
      },
    },
    (req) => app.services.images.saasImage({ principal: req.principal!, id: req.params.id }),
  );
  app.post(
    '/cloud/images',
    {
      config: { problems: [409, 502] },
      schema: {
        operationId: 'createSaasImage',
        description:
          "Creates a SaaS image (defaults: OS type Windows, official false, jumpStart false, active true). The cloud image must be the provider's, in the image's region. 409 when the name is used. Audited (spec 3 §2.3, §5, §7 Cloud).",
        tags: cloudTags,
        summary: 'Create a SaaS image (audited)',
        body: ZSaveSaasImageRequest,
        response: { 200: ZSaasImage },
      },
    },
    (req) => app.services.images.createSaasImage({ principal: req.principal!, body: req.body }),
  );
  app.put(
    '/cloud/images/:id',
    {
      config: { problems: [409, 502] },
      schema: {
        operationId: 'updateSaasImage',
        description:
          'Updates a SaaS image; its name and jumpStart cannot change (400). 409 for a region change while accounts use it. Audited with field-level changes (spec 3 §2.3, §5, §7 Cloud).',
        tags: cloudTags,
        summary: 'Update a SaaS image (audited)',
        params: ZIdParams,
        body: ZSaveSaasImageRequest,
        response: { 200: ZSaasImage },
      },
    },
    (req) => app.services.images.updateSaasImage({ principal: req.principal!, id: req.params.id, body: req.body }),
  );
  app.delete(
    '/cloud/images/:id',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'deleteSaasImage',
        description: 'Deletes a SaaS image. 409, naming them, while accounts or MMA classes use it. Audited (spec 3 §2.3, §5, §7 Cloud).',
        tags: cloudTags,
        summary: 'Delete a SaaS image not in use (audited)',
        params: ZIdParams,
        response: { 200: ZOk },
      },
    },
    (req) => app.services.images.deleteSaasImage({ principal: req.principal!, id: req.params.id }),
  );

  app.get(
    '/cloud/caa-images',
    {
      config: { problems: [502] },
      schema: {
        operationId: 'listCloudImages',
        description:
          'Images held by the cloud provider (those made by Create AMI included), newest first: id, name, description, state, region; `name` matches name or id case-insensitively, `region` is a cloud code (spec 3 §2.4, §7 Cloud).',
        tags: cloudTags,
        summary: 'Images held by the cloud provider',
        querystring: ZListCloudImagesQuery,
        response: { 200: ZCloudImagesResponse },
      },
    },
    (req) => app.services.images.cloudImages({ query: req.query }),
  );
  app.delete(
    '/cloud/caa-images',
    {
      config: { problems: [404, 409, 502] },
      schema: {
        operationId: 'deleteCloudImage',
        description:
          'Deregisters the cloud image of that name in that region (`id` picks one of several of the same name). 404 when none, 409 while a SaaS image points at it. Audited (spec 3 §2.4, §7 Cloud).',
        tags: cloudTags,
        summary: 'Delete a cloud image no SaaS image uses (audited)',
        querystring: ZDeleteCloudImageQuery,
        response: { 200: ZOk },
      },
    },
    (req) => app.services.images.deleteCloudImage({ principal: req.principal!, query: req.query }),
  );
};
