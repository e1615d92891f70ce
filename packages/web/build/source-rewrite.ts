/**
 * A build-only Vite plugin that rewrites the source of some modules (the
 * console's antd plugins: `antd-zero-runtime.ts`, `deep-imports.ts`).
 * `rewrite` gets a module's code, its id and the bundler's parser (ESTree, see
 * `estree.ts`) and answers the new code, or null to leave the module as it is.
 * No source map: the rewrites touch third-party modules only.
 */
import type { Plugin } from 'vite';

export type SourceRewrite = (code: string, id: string, parse: (code: string) => unknown) => string | null;

export function sourceRewritePlugin(name: string, rewrite: SourceRewrite): Plugin {
  return {
    name,
    apply: 'build',
    transform(code, id) {
      const out = rewrite(code, id, (source) => this.parse(source));
      return out === null ? null : { code: out, map: null };
    },
  };
}
