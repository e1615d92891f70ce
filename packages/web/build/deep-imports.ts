/**
 * Build plugin: a few imports of antd's own modules rewritten to the module
 * that holds what they take (issue 26, script per route). A package whose
 * index adds statics to its default export (`RefForm.Field = Field`) has side
 * effects at its top level, so a bundler keeps the whole index for one name.
 *
 * `antd/es/form/context.js` takes only `FormProvider` from `@rc-component/form`,
 * and every antd Input, Modal and Select reads that context: each screen with
 * an input carried the whole of rc-form and async-validator (about 40 KB, 12 KB
 * gzip), the login page and the shell's counters bar included, whether or not
 * the screen has a Form. `@rc-component/form/es/FormContext` holds that
 * `FormProvider` and imports only React.
 *
 * Known limitations: a rewrite matches its import statement's text exactly; an
 * antd release that writes it differently keeps the full import (no error;
 * `bench/web-bundle` shows the size), and `test/deep-imports.test.ts` fails
 * when the installed antd no longer has the statement.
 */
import type { Plugin } from 'vite';
import { sourceRewritePlugin } from './source-rewrite.ts';

export interface DeepImport {
  /** The module whose import is rewritten, by its path. */
  importer: RegExp;
  /** The import statement as the module writes it. */
  statement: string;
  /** What replaces it. */
  replacement: string;
}

export const DEEP_IMPORTS: readonly DeepImport[] = [
  {
    importer: /[\\/]node_modules[\\/]antd[\\/]es[\\/]input[\\/]Input\.js$/,
    statement: "import RcInput from '@rc-component/input';",
    replacement: "import RcInput from '@rc-component/input/es/Input';",
  },
  {
    importer: /[\\/]node_modules[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/,
    statement: "import { FormProvider as RcFormProvider } from '@rc-component/form';",
    replacement: "import { FormProvider as RcFormProvider } from '@rc-component/form/es/FormContext';",
  },
];

/** `code` of the module `id` with its rewrites of {@link DEEP_IMPORTS} made, or null when none applies. */
export function rewriteDeepImports(code: string, id: string): string | null {
  let out: string | null = null;
  for (const rewrite of DEEP_IMPORTS) {
    if (rewrite.importer.test(id) && (out ?? code).includes(rewrite.statement)) out = (out ?? code).replace(rewrite.statement, rewrite.replacement);
  }
  return out;
}

export function deepImports(): Plugin {
  return sourceRewritePlugin('fleet:deep-imports', (code, id) => rewriteDeepImports(code, id));
}
