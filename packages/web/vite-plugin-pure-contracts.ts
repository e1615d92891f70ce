/**
 * Build plugin: marks the module-level calls of `@fleet/contracts` as pure
 * (`/* @__PURE__ *\/`), so that tree-shaking drops the zod schemas the console
 * never calls and keeps only the constants it uses (class lists, labels,
 * page sizes). The console takes its API types from the contracts at compile
 * time; at run time it needs no validator, and zod is about 26 KB gzip.
 *
 * Safe because the contracts' top level only builds schemas and constant lists:
 * no I/O and no registration whose effect is needed when the value is unused.
 * Calls inside functions are left alone; they run only when called.
 *
 * Known limitations: a contracts module that one day registers something at
 * load time (e.g. a zod global registry entry) would lose that registration in
 * the console bundle when the registered value is unused.
 */
import type { Plugin } from 'vite';

const CONTRACTS_SOURCE = /[\\/]packages[\\/]contracts[\\/]src[\\/][^\\/]+\.ts$/;
const PURE = '/* @__PURE__ */ ';

interface Node {
  type: string;
  start: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

const FUNCTION_TYPES = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration', 'ClassBody']);

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

export function pureContracts(): Plugin {
  return {
    name: 'fleet:pure-contracts',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!CONTRACTS_SOURCE.test(id)) return null;
      const program = this.parse(code) as unknown as { body: Node[] };
      const starts = new Set<number>();
      for (const statement of program.body) {
        if (statement.type === 'ImportDeclaration') continue;
        moduleLevelCallStarts(statement, starts);
      }
      let out = code;
      for (const start of [...starts].sort((a, b) => b - a)) out = out.slice(0, start) + PURE + out.slice(start);
      return { code: out, map: null };
    },
  };
}
