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
 * The same for antd's Table, on every screen with a table: its row selection
 * takes four helpers from `@rc-component/tree`, whose index evaluates the
 * whole Tree component (about 9 KB gzip), and a Radio group (which the row
 * selection imports) one line of antd's Form hook, whose module imports the
 * whole of rc-form (about 15 KB); they are taken from the modules that define
 * them, or written out. And code that only a prop the console never passes renders
 * loads when it first renders ({@link lazyComponent}): a column filter's
 * dropdown (with antd's Tree, Checkbox and Radio), `Input.OTP`, and the
 * ConfigProvider's tooltip `UniqueProvider` (only `tooltip={{ unique: true }}`
 * renders it), which put rc-trigger's positioning and popup code (about 9 KB
 * gzip) in the entry of every page, the sign-in page's included, and a
 * Result's illustrations (only its 404, 500 and 403 statuses draw them).
 * Such a part still works when a screen uses it, a moment later. A Card's
 * Tabs (only `tabList` draws them) and a Typography's `editable` box (with
 * antd's TextArea) load so too: 5 to 10 KB less on the screens that draw no
 * Tabs of their own, about 3 KB more on those that do (New Account, edit
 * account, the Updater), measured with build/route-chunks.ts (before it,
 * each lazy part split the modules shared with the sign-in page into
 * smaller chunks, and these two cost more than they saved).
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

/** The path of antd's ES module `path` (`table/hooks/useSelection.js`), as a module id matches it. */
function antdModule(path: string): RegExp {
  return new RegExp(`[\\\\/]node_modules[\\\\/]antd[\\\\/]es[\\\\/]${path.replace(/\./g, '\\.').replace(/\//g, '[\\\\/]')}$`);
}

/**
 * A component `name` that loads the default export of `from` when it first renders, showing `fallback` (an
 * expression of its `props`) until then: for the modules' code only a rare prop renders. It imports React under a
 * name of its own, so that it fits any module.
 */
function lazyComponent(name: string, from: string, fallback: string): string {
  const react = `ReactFor${name}`;
  return [
    `import * as ${react} from 'react';`,
    `const Lazy${name} = ${react}.lazy(() => import('${from}'));`,
    `const ${name} = (props) => ${react}.createElement(${react}.Suspense, { fallback: ${fallback} }, ${react}.createElement(Lazy${name}, props));`,
  ].join('\n');
}

export const DEEP_IMPORTS: readonly DeepImport[] = [
  {
    importer: antdModule('input/Input.js'),
    statement: "import RcInput from '@rc-component/input';",
    replacement: "import RcInput from '@rc-component/input/es/Input';",
  },
  {
    importer: antdModule('form/context.js'),
    statement: "import { FormProvider as RcFormProvider } from '@rc-component/form';",
    replacement: "import { FormProvider as RcFormProvider } from '@rc-component/form/es/FormContext';",
  },
  {
    importer: antdModule('table/hooks/useSelection.js'),
    statement: "import { arrAdd, arrDel, conductCheck, convertDataToEntities } from '@rc-component/tree';",
    replacement: [
      "import { conductCheck } from '@rc-component/tree/es/utils/conductUtil';",
      "import { convertDataToEntities } from '@rc-component/tree/es/utils/treeUtil';",
      // As rc-tree's `util` module writes them: that module imports TreeNode.
      'function arrDel(list, value) {',
      '  if (!list) return [];',
      '  const clone = list.slice();',
      '  const index = clone.indexOf(value);',
      '  if (index >= 0) clone.splice(index, 1);',
      '  return clone;',
      '}',
      'function arrAdd(list, value) {',
      '  const clone = (list || []).slice();',
      '  if (clone.indexOf(value) === -1) clone.push(value);',
      '  return clone;',
      '}',
    ].join('\n'),
  },
  {
    importer: antdModule('radio/group.js'),
    statement: "import { toNamePathStr } from '../form/hooks/useForm';",
    replacement: ["import { toArray } from '../form/util';", "const toNamePathStr = (name) => toArray(name).join('_');"].join('\n'),
  },
  {
    importer: antdModule('table/hooks/useFilter/index.js'),
    statement: "import FilterDropdown, { flattenKeys } from './FilterDropdown';",
    replacement: [
      lazyComponent('FilterDropdown', './FilterDropdown', 'props.children'),
      'function flattenKeys(filters) {',
      '  return (filters || []).flatMap(({ value, children }) => (children ? [value, ...flattenKeys(children)] : [value]));',
      '}',
    ].join('\n'),
  },
  {
    importer: antdModule('input/index.js'),
    statement: "import OTP from './OTP';",
    replacement: lazyComponent('OTP', './OTP', 'null'),
  },
  // A Result's illustrations (about 40 KB before minifying) draw only for status 404, 500 and 403; an empty picture of
  // their size stands in while one loads.
  ...([
    ['noFound', '252'],
    ['serverError', '254'],
    ['unauthorized', '251'],
  ] as const).map(([name, width]) => ({
    importer: antdModule('result/index.js'),
    statement: `import ${name} from './${name}';`,
    replacement: lazyComponent(name, `./${name}`, `ReactFor${name}.createElement('svg', { width: '${width}', height: '294' })`),
  })),
  {
    importer: antdModule('card/Card.js'),
    statement: "import Tabs from '../tabs';",
    replacement: lazyComponent('Tabs', '../tabs', 'null'),
  },
  {
    importer: antdModule('typography/Base/index.js'),
    statement: "import Editable from '../Editable';",
    replacement: lazyComponent('Editable', '../Editable', 'null'),
  },
  {
    importer: antdModule('config-provider/index.js'),
    statement: "import UniqueProvider from '../tooltip/UniqueProvider';",
    replacement: lazyComponent('UniqueProvider', '../tooltip/UniqueProvider', 'props.children'),
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
