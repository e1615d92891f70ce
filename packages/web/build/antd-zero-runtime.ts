/**
 * Build plugin: drops antd's style generators from the console's bundle (issue
 * 26, script per route). The console runs antd in `zeroRuntime` mode
 * (`src/app/theme.ts`): its styles come from the static `antd/dist/antd.css`, and
 * antd never calls the functions that would write them at run time. Those
 * functions were still bundled: about 60 KB gzip of every signed-in page (the
 * accounts list: 59.5 of its 425 KB), and parsed and compiled at each load.
 *
 * In each module of antd's `es/**\/style/` folders, the style function given to
 * `genStyleHooks`, `genComponentStyleHook` or `genSubStyleComponent` (their
 * second argument) becomes `() => []`; tree-shaking then drops every
 * generator only it reached. What the hooks still do at run time stays: the
 * component tokens (their third argument), which become the CSS variables
 * `antd.css` reads, and the hash and CSS-variable class names.
 *
 * Safe because in zeroRuntime mode `genComponentStyleHook`
 * (`@ant-design/cssinjs-utils`) returns before it reads the style function; a
 * root rendered outside the console's ConfigProvider (antd's static `message`
 * or `Modal` methods, which the console does not use) would write no style of
 * its own and still get antd.css's.
 *
 * Known limitations: an antd release that names these helpers differently
 * leaves its generators in the bundle (no error; `bench/web-bundle` shows the
 * size), and `test/antd-zero-runtime.test.ts` fails when no antd style module
 * is transformed any more.
 */
import type { Plugin } from 'vite';
import { isNode, type Node } from './estree.ts';
import { sourceRewritePlugin } from './source-rewrite.ts';

/** antd's style modules: `node_modules/antd/es/<component>/style/<file>.js` (and `es/style`, `es/_util/wave/style.js`). */
export const ANTD_STYLE_MODULE = /[\\/]node_modules[\\/]antd[\\/]es[\\/](?:.+[\\/])?style(?:[\\/][^\\/]+)?\.js$/;

/** The style-hook factories whose second argument is a style function. */
const STYLE_HOOK_FACTORIES = new Set(['genStyleHooks', 'genComponentStyleHook', 'genSubStyleComponent']);

/** What replaces a style function: no style. */
export const NO_STYLE = '() => []';


/** The style functions (second arguments of the factories' calls) anywhere in `node`. */
function styleFunctions(node: unknown, found: Node[]): void {
  if (Array.isArray(node)) {
    for (const child of node) styleFunctions(child, found);
    return;
  }
  if (!isNode(node)) return;
  if (node.type === 'CallExpression') {
    const callee = node.callee as Node;
    const args = node.arguments as Node[];
    if (callee.type === 'Identifier' && STYLE_HOOK_FACTORIES.has(callee.name as string) && args.length >= 2 && args[1]!.type !== 'SpreadElement') {
      found.push(args[1]!);
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'type' && typeof value === 'object') styleFunctions(value, found);
  }
}

/**
 * `code` (an antd style module) with each style function replaced by
 * {@link NO_STYLE} (module docstring), parsed with `parse` (the bundler's
 * parser, an ESTree program). Answers null when it has none.
 */
export function dropStyleFunctions(code: string, parse: (code: string) => unknown): string | null {
  const found: Node[] = [];
  styleFunctions(parse(code), found);
  if (found.length === 0) return null;
  let out = code;
  // From the end, so that the offsets before each replacement stay right.
  for (const fn of found.sort((a, b) => b.start - a.start)) out = out.slice(0, fn.start) + NO_STYLE + out.slice(fn.end);
  return out;
}

export function antdZeroRuntime(): Plugin {
  return sourceRewritePlugin('fleet:antd-zero-runtime', (code, id, parse) => (ANTD_STYLE_MODULE.test(id) ? dropStyleFunctions(code, parse) : null));
}
