/**
 * The module registry's checks (issue 23): modules ordered by what they need, and
 * a start that fails with the module and the dependency named when a needed
 * module is missing from the list or modules need each other in a circle.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { StartFailure } from '../lib/start-failure.js';
import { createServices, defineModule, moduleTags, orderModules, type AnyModule, type ModuleContext } from './module.js';
import { MODULES, type Services } from './index.js';
import type { AuditService } from './audit/audit.service.js';
import type { SoftwareUpdateService } from './software-update/software-update.service.js';

const names = (modules: readonly AnyModule[]) => modules.map((m) => m.name);

/** What `orderModules` throws for `modules`, or undefined. */
function failure(modules: readonly AnyModule[]): StartFailure | undefined {
  try {
    orderModules(modules);
    return undefined;
  } catch (err) {
    if (err instanceof StartFailure) return err;
    throw err;
  }
}

const audit = defineModule({ name: 'audit', service: () => ({ record: (what: string) => `recorded ${what}` }) });
const rollouts = defineModule({ name: 'rollouts', needs: [audit], service: (_context, { audit }) => ({ start: () => audit.record('rollout') }) });
const updates = defineModule({ name: 'updates', needs: [audit, rollouts], service: (_context, { rollouts }) => ({ update: () => rollouts.start() }) });
const health = defineModule({ name: 'health', tags: [{ name: 'Health', description: 'Liveness.' }] });

describe('orderModules', () => {
  it('puts each module after the modules it needs, otherwise keeps the list order', () => {
    expect(names(orderModules([health, updates, rollouts, audit]))).toEqual(['health', 'audit', 'rollouts', 'updates']);
    expect(names(orderModules([audit, rollouts, updates, health]))).toEqual(['audit', 'rollouts', 'updates', 'health']);
  });

  it('fails naming the module and the needed module missing from the list', () => {
    const err = failure([health, audit, updates]);
    expect(err?.message).toBe("module 'updates' needs module 'rollouts', which is not in the module list");
    expect(err?.hint).toBe("Add rollouts's module to the list in packages/server/src/modules/index.ts.");
  });

  it('fails naming the module and the circle of modules that need each other', () => {
    const a: { name: string; needs: AnyModule[]; tags: [] } = { name: 'a', needs: [], tags: [] };
    const b: AnyModule = { name: 'b', needs: [a], tags: [] };
    const c: AnyModule = { name: 'c', needs: [b], tags: [] };
    a.needs.push(c);
    expect(failure([health, a, b, c])?.message).toBe("module 'a' has a circular dependency: a → c → b → a");
    const self: { name: string; needs: AnyModule[]; tags: [] } = { name: 'self', needs: [], tags: [] };
    self.needs.push(self);
    expect(failure([self])?.message).toBe("module 'self' has a circular dependency: self → self");
  });

  it('fails on a name or a tag used twice', () => {
    expect(failure([audit, defineModule({ name: 'audit' })])?.message).toBe("two modules are named 'audit'");
    expect(failure([health, defineModule({ name: 'other', tags: [{ name: 'Health', description: 'Again.' }] })])?.message).toBe(
      "modules 'health' and 'other' both declare the OpenAPI tag 'Health'",
    );
  });

  it('accepts the server’s module list, and derives its fully typed `Services` (checked by tsc)', () => {
    expect(names(orderModules(MODULES))).toHaveLength(MODULES.length);
    expectTypeOf<Services>().not.toBeAny();
    expectTypeOf<Services['audit']>().toEqualTypeOf<AuditService>();
    expectTypeOf<Services['softwareUpdate']>().toEqualTypeOf<SoftwareUpdateService>();
    expectTypeOf<Extract<keyof Services, 'health'>>().toBeNever();
    expectTypeOf<keyof Services>().toEqualTypeOf<Exclude<(typeof MODULES)[number]['name'], 'health'>>();
  });
});

describe('createServices', () => {
  it('makes each service once, given the services it needs, keyed by module name; route-only modules have none', () => {
    const services = createServices([health, updates, rollouts, audit], {} as ModuleContext);
    expect(Object.keys(services).sort()).toEqual(['audit', 'rollouts', 'updates']);
    expect(services.updates.update()).toBe('recorded rollout');
  });
});

describe('moduleTags', () => {
  it('lists the tags in the order of the list', () => {
    expect(moduleTags([audit, health, defineModule({ name: 'x', tags: [{ name: 'B', description: 'b' }, { name: 'A', description: 'a' }] })])).toEqual([
      { name: 'Health', description: 'Liveness.' },
      { name: 'B', description: 'b' },
      { name: 'A', description: 'a' },
    ]);
  });
});
