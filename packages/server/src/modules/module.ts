/**
 * The module registry (issue 23; `docs/architecture.md` "Modules: how to add one"):
 * each folder of `modules/` exports one definition made by {@link defineModule} in
 * `<name>.module.ts`, and `modules/index.ts` lists them. `buildApp` walks that list:
 * {@link orderModules} checks it and orders it by what each module needs,
 * {@link createServices} makes `app.services`, {@link moduleTags} gives the OpenAPI
 * document's tags (DESIGN §5) and each module's route plugin is registered under
 * `/api/v1` in the list's order.
 *
 * A module needs other modules by reference (`needs: [auditModule]`), so that its
 * service factory gets their services fully typed, and `Services` is derived from
 * the list ({@link ServicesOf}) instead of written by hand.
 *
 * Known limitations: one service per module at the most (`app.services.<name>`);
 * the engine parts are not modules' (their start and stop order crosses modules:
 * `engine/parts.ts`).
 */
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/client.js';
import type { TokenService } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { CloudProvider } from '../engine/cloud/index.js';
import type { TaskEvents } from '../engine/push/events.js';
import type { TaskQueue } from '../engine/tasks/queue.js';
import type { OperationQueue } from '../engine/operations/queue.js';
import type { LicenseSigner } from '../lib/license-signing.js';
import type { Mailer } from '../lib/mailer.js';
import type { SecretBox } from '../lib/secret-box.js';
import { StartFailure } from '../lib/start-failure.js';
import type { ObjectStore } from '../storage/object-store.js';

/** An OpenAPI tag with its description (the document's `tags`; redocly's `operation-tag-defined` needs each used one). */
export interface OpenApiTag {
  readonly name: string;
  readonly description: string;
}

/**
 * What every service factory may use besides other modules' services: the app's
 * infrastructure, made once by `buildApp` from its options. `tasks` and
 * `operations` are the queues the engine drains (also `app.deps`), not services.
 */
export interface ModuleContext {
  db: Db;
  events: TaskEvents;
  tasks: TaskQueue;
  operations: OperationQueue;
  tokens: TokenService;
  secrets: SecretBox;
  licenseSigner: LicenseSigner;
  mailer: Mailer;
  cloud: CloudProvider;
  store: ObjectStore;
  /** The provider's Grafana (`GRAFANA_URL`), or null: no machine has a Grafana link. */
  grafanaUrl: string | null;
  /** `ROLLOUT_REQUIRE_SECOND_APPROVER`: a wave's approver must not be the rollout's starter (default true). */
  rolloutRequireSecondApprover: boolean;
  /** The operation agent's settings (`Config.agent`): Panic and anomaly thresholds the MMA protocol's finishes apply too. */
  agent: Config['agent'];
  /** Single sign-on and whether the password sign-in is on (`Config.sso`, issue 28 point 2). */
  sso: Config['sso'];
}

/** What the registry reads of any module, whatever its service's type. */
export interface AnyModule {
  /** The key of its service in `app.services`, and its name in start-up errors (camelCase). */
  readonly name: string;
  /** The modules whose services its factory takes. */
  readonly needs: readonly AnyModule[];
  /** The OpenAPI tags it declares, in the document's order (its routes may also use other modules' tags). */
  readonly tags: readonly OpenApiTag[];
  /** Its routes, registered under `/api/v1` in their own encapsulated context. */
  readonly routes?: FastifyPluginAsyncZod;
  /** Makes its service; absent for a module of routes alone (health). */
  service?(context: ModuleContext, needs: Record<string, unknown>): unknown;
}

/** The service type a module's factory makes (`never` without one). */
export type ServiceOf<M> = M extends { service?(context: ModuleContext, needs: never): infer S } ? S : never;

/** The services of a list of modules by name: `{ audit: AuditService; … }` (modules without a service are left out). */
export type ServicesOf<Modules extends readonly AnyModule[]> = {
  [M in Modules[number] as [ServiceOf<M>] extends [never] ? never : M['name']]: ServiceOf<M>;
};

/** One module as {@link defineModule} makes it; `Service` is `never` for a module without one. */
export interface ModuleDefinition<Name extends string, Service, Needs extends readonly AnyModule[]> extends AnyModule {
  readonly name: Name;
  readonly needs: Needs;
  service?(context: ModuleContext, needs: ServicesOf<Needs>): Service;
}

/**
 * Defines a module: `name` (its `app.services` key), `needs` (module definitions
 * whose services `service` gets as its second argument, typed), `service(context,
 * needs)` (its factory), `routes` and `tags`. Checks nothing at once: a missing or
 * circular need fails the start ({@link orderModules}).
 *
 * @example
 * export const sitesModule = defineModule({
 *   name: 'sites',
 *   needs: [auditModule],
 *   service: ({ db }, { audit }) => createSiteService({ db, audit }),
 *   routes: siteRoutes,
 *   tags: [{ name: 'Sites', description: 'Sites of an account (spec 1 §7).' }],
 * });
 */
export function defineModule<const Name extends string, Service = never, const Needs extends readonly AnyModule[] = readonly []>(definition: {
  name: Name;
  needs?: Needs;
  service?: (context: ModuleContext, needs: ServicesOf<Needs>) => Service;
  routes?: FastifyPluginAsyncZod;
  tags?: readonly OpenApiTag[];
}): ModuleDefinition<Name, Service, Needs> {
  return { ...definition, needs: definition.needs ?? ([] as unknown as Needs), tags: definition.tags ?? [] };
}

const LIST_FILE = 'packages/server/src/modules/index.ts';

/**
 * The modules in the order their services are made: each after the modules it
 * needs, otherwise in the list's order.
 *
 * Throws a {@link StartFailure} naming the module and the dependency: a name or a
 * tag used twice, a needed module missing from the list, or modules that need
 * each other in a circle (`a → b → a`).
 */
export function orderModules(modules: readonly AnyModule[]): AnyModule[] {
  const byName = new Map<string, AnyModule>();
  const tags = new Map<string, string>();
  for (const module of modules) {
    if (byName.has(module.name)) throw new StartFailure(`two modules are named '${module.name}'`, `Give each module in ${LIST_FILE} its own name, or list it once.`);
    byName.set(module.name, module);
    for (const tag of module.tags) {
      const owner = tags.get(tag.name);
      if (owner) throw new StartFailure(`modules '${owner}' and '${module.name}' both declare the OpenAPI tag '${tag.name}'`, 'Declare each tag in one module; other modules may use it.');
      tags.set(tag.name, module.name);
    }
  }
  const ordered: AnyModule[] = [];
  const done = new Set<string>();
  const visit = (module: AnyModule, path: string[]) => {
    if (done.has(module.name)) return;
    if (path.includes(module.name)) {
      const circle = [...path.slice(path.indexOf(module.name)), module.name].join(' → ');
      throw new StartFailure(
        `module '${module.name}' has a circular dependency: ${circle}`,
        'Modules cannot need each other in a circle: move what both use into a module they both need.',
      );
    }
    for (const need of module.needs) {
      if (byName.get(need.name) !== need) {
        throw new StartFailure(`module '${module.name}' needs module '${need.name}', which is not in the module list`, `Add ${need.name}'s module to the list in ${LIST_FILE}.`);
      }
      visit(need, [...path, module.name]);
    }
    done.add(module.name);
    ordered.push(module);
  };
  for (const module of modules) visit(module, []);
  return ordered;
}

/**
 * `app.services`: each module's service, made once in dependency order
 * ({@link orderModules}, whose errors it throws), its factory given `context`
 * and the services of the modules it needs.
 */
export function createServices<const Modules extends readonly AnyModule[]>(modules: Modules, context: ModuleContext): ServicesOf<Modules> {
  const services: Record<string, unknown> = {};
  for (const module of orderModules(modules)) {
    if (!module.service) continue;
    const needs = Object.fromEntries(module.needs.map((need) => [need.name, services[need.name]]));
    services[module.name] = module.service(context, needs);
  }
  return services as ServicesOf<Modules>;
}

/** The OpenAPI document's tags: every module's, in the list's order. */
export function moduleTags(modules: readonly AnyModule[]): OpenApiTag[] {
  return modules.flatMap((module) => module.tags.map((tag) => ({ name: tag.name, description: tag.description })));
}

/** Registers each module's route plugin on `api` (the `/api/v1` context), in the list's order. */
export async function registerModuleRoutes(api: FastifyInstance, modules: readonly AnyModule[]): Promise<void> {
  for (const module of modules) if (module.routes) await api.register(module.routes);
}
