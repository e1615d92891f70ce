/**
 * `React.lazy` of a module's named export (the console's modules export their
 * components by name; `lazy` wants a default): `lazyNamed(() =>
 * import('./TasksDrawer'), 'TasksDrawer')` loads the module when the component
 * first renders (issue 26: dialogs, drawers and cards a screen does not draw
 * at first). Render it under Suspense.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** The props of a component type. */
type PropsOf<T> = T extends ComponentType<infer P> ? P : never;

export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): LazyExoticComponent<ComponentType<PropsOf<M[K]>>> {
  return lazy(() => load().then((module) => ({ default: module[name] as ComponentType<PropsOf<M[K]>> })));
}
