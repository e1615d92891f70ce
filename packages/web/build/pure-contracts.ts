/**
 * Build plugin: lets tree-shaking drop every module-level value of
 * `@fleet/contracts` the console does not use, the zod schemas above all, and
 * keep the constants it uses (class lists, labels, page sizes). The console
 * takes its API types from the contracts at compile time; at run time it needs
 * no validator but for a few settings screens' defaults, and zod is about 26 KB
 * gzip and about 40 ms of each page load to build the schemas.
 *
 * Each module-level `const X = <expression>` whose expression calls, constructs,
 * spreads or reads a property becomes `const X = /* @__PURE__ *\/ (() => <expression>)()`:
 * a pure call that the bundler drops whole when `X` is unused. Marking only the
 * calls pure (what this plugin did first) left their side-effecting arguments
 * behind: `z.object({ ...ZBase.shape, more })` kept `({ ...ZBase.shape })`, a
 * property read that may run a getter, so `ZBase` and zod stayed in every
 * signed-in page's chunk. Any other module-level call is marked pure too.
 *
 * Safe because the contracts' top level only builds schemas and constant lists:
 * no I/O and no registration whose effect is needed when the value is unused.
 * Calls inside functions are left alone; they run only when called.
 *
 * Known limitations: a contracts module that one day registers something at
 * load time (e.g. a zod global registry entry) would lose that registration in
 * the console bundle when the registered value is unused. A schema that a
 * screen uses at run time keeps zod in the chunk of every module that imports
 * anything from its module: such schemas live in modules the first screens do
 * not import.
 */
import type { Plugin } from 'vite';
import { isNode, type Node } from './estree.ts';

const CONTRACTS_SOURCE = /[\\/]packages[\\/]contracts[\\/]src[\\/][^\\/]+\.ts$/;
const PURE = '/* @__PURE__ */ ';


const FUNCTION_TYPES = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration', 'ClassBody']);
/** What may have an effect when evaluated: a call, a construction, a spread (runs getters), a property read. */
const EFFECT_TYPES = new Set(['CallExpression', 'NewExpression', 'SpreadElement', 'MemberExpression', 'TaggedTemplateExpression']);

/** Start offsets of the calls evaluated when the module loads. */
function moduleLevelCallStarts(node: unknown, starts: Set<number>): void {
  if (Array.isArray(node)) {
    for (const child of node) moduleLevelCallStarts(child, starts);
    return;
  }
  if (!isNode(node) || FUNCTION_TYPES.has(node.type)) return;
  if (node.type === 'CallExpression' || node.type === 'NewExpression') starts.add(node.start);
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'type' && typeof value === 'object') moduleLevelCallStarts(value, starts);
  }
}

/** Whether evaluating `node` (outside the functions it defines) may have an effect. */
function mayHaveEffect(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(mayHaveEffect);
  if (!isNode(node) || FUNCTION_TYPES.has(node.type)) return false;
  if (EFFECT_TYPES.has(node.type)) return true;
  return Object.entries(node).some(([key, value]) => key !== 'type' && typeof value === 'object' && mayHaveEffect(value));
}

/** The module-level `const`/`let` initialisers to wrap, and the other module-level calls. */
function edits(body: Node[]): { wrap: Node[]; calls: Set<number> } {
  const wrap: Node[] = [];
  const calls = new Set<number>();
  for (const statement of body) {
    if (statement.type === 'ImportDeclaration') continue;
    const declaration = statement.type === 'ExportNamedDeclaration' && isNode(statement.declaration) ? statement.declaration : statement;
    if (declaration.type === 'VariableDeclaration') {
      for (const declarator of declaration.declarations as Node[]) {
        if (isNode(declarator.init) && mayHaveEffect(declarator.init)) wrap.push(declarator.init);
      }
      continue;
    }
    if (declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration') continue;
    moduleLevelCallStarts(statement, calls);
  }
  return { wrap, calls };
}

/**
 * `code` (a contracts module) with its module-level values made droppable (module
 * docstring), parsed with `parse` (the bundler's parser, an ESTree program).
 */
export function markPure(code: string, parse: (code: string) => unknown): string {
  const { wrap, calls } = edits((parse(code) as { body: Node[] }).body);
  // Insertions from the end, so that the offsets before them stay right.
  const insertions = [
    ...wrap.flatMap((init) => [
      { at: init.start, text: `${PURE}(() => (` },
      { at: init.end, text: '))()' },
    ]),
    ...[...calls].map((at) => ({ at, text: PURE })),
  ].sort((a, b) => b.at - a.at);
  let out = code;
  for (const { at, text } of insertions) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

export function pureContracts(): Plugin {
  return {
    name: 'fleet:pure-contracts',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!CONTRACTS_SOURCE.test(id)) return null;
      return { code: markPure(code, (source) => this.parse(source)), map: null };
    },
  };
}
