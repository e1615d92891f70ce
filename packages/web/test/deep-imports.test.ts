import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEEP_IMPORTS, rewriteDeepImports } from '../build/deep-imports.ts';

const require = createRequire(import.meta.url);
const antdEs = join(dirname(require.resolve('antd/package.json')), 'es');
const rcForm = dirname(require.resolve('@rc-component/form/package.json'));

describe('the deep-imports rewrite', () => {
  it("points antd's form context at the module that holds FormProvider, which imports only React", () => {
    const file = join(antdEs, 'form/context.js');
    const out = rewriteDeepImports(readFileSync(file, 'utf8'), file);
    // The installed antd still has the statement (else the rewrite no longer applies).
    expect(out).not.toBeNull();
    expect(out).toContain("from '@rc-component/form/es/FormContext'");
    expect(out).not.toContain("from '@rc-component/form';");

    const target = readFileSync(join(rcForm, 'es/FormContext.js'), 'utf8');
    expect(target).toMatch(/^export \{ FormProvider \};$/m);
    expect(target.match(/^import .*$/gm)).toEqual(["import * as React from 'react';"]);
  });

  it("points antd's Input at rc-input's Input module, not the index that also evaluates its TextArea", () => {
    const file = join(antdEs, 'input/Input.js');
    const out = rewriteDeepImports(readFileSync(file, 'utf8'), file);
    expect(out).not.toBeNull();
    expect(out).toContain("import RcInput from '@rc-component/input/es/Input';");
    const rcInput = dirname(require.resolve('@rc-component/input/package.json'));
    expect(readFileSync(join(rcInput, 'es/Input.js'), 'utf8')).toMatch(/^export default Input;$/m);
    expect(readFileSync(join(rcInput, 'es/index.js'), 'utf8')).toMatch(/^import Input from "\.\/Input";$/m);
  });

  it('leaves other modules alone, even with the same statement', () => {
    const rewrite = DEEP_IMPORTS.find((r) => r.statement.includes('FormProvider'));
    expect(rewriteDeepImports(rewrite!.statement, '/x/node_modules/antd/es/form/Form.js')).toBeNull();
    expect(rewriteDeepImports('export const x = 1;', '/x/node_modules/antd/es/form/context.js')).toBeNull();
  });
});

describe('the deep-imports rewrite of antd Table and Input', () => {
  const rewritten = (path: string) => {
    const file = join(antdEs, path);
    const out = rewriteDeepImports(readFileSync(file, 'utf8'), file);
    // The installed antd still has the statement (else the rewrite no longer applies).
    expect(out, path).not.toBeNull();
    return out!;
  };

  it("takes the row selection's tree helpers from the modules that define them, not the Tree's index", async () => {
    const out = rewritten('table/hooks/useSelection.js');
    expect(out).not.toContain("from '@rc-component/tree';");
    expect(out).not.toContain("from '@rc-component/tree/es/util';");
    const rcTree = (await import('@rc-component/tree/es/index.js')) as Record<string, unknown>;
    const modules = {
      '@rc-component/tree/es/utils/conductUtil': await import('@rc-component/tree/es/utils/conductUtil'),
      '@rc-component/tree/es/utils/treeUtil': await import('@rc-component/tree/es/utils/treeUtil'),
    } as Record<string, Record<string, unknown>>;
    const taken = [...out.matchAll(/^import \{ ([^}]+) \} from '(@rc-component\/tree\/[^']+)';$/gm)];
    expect(taken.flatMap(([, names]) => names!.split(', ')).sort()).toEqual(['conductCheck', 'convertDataToEntities']);
    // Each helper is the very function the index exports.
    for (const [, names, from] of taken) {
      for (const name of names!.split(', ')) expect(modules[from!]![name], name).toBe(rcTree[name]);
    }
    // The two written out answer as rc-tree's (the first of duplicates removed; NaN never found, as indexOf finds it).
    const written = new Function(`${/^function arrDel[\s\S]*?^\}\n^function arrAdd[\s\S]*?^\}$/m.exec(out)![0]}; return { arrDel, arrAdd };`)() as Record<string, (l: unknown, v: unknown) => unknown>;
    const cases: [unknown, unknown][] = [[undefined, 1], [null, 'a'], [[], 'a'], [['a', 'b', 'a'], 'a'], [['a'], 'b'], [[1, 2], 2], [[NaN], NaN]];
    for (const name of ['arrDel', 'arrAdd']) {
      for (const [list, value] of cases) expect(written[name]!(list, value), `${name}(${String(list)}, ${String(value)})`).toEqual((rcTree[name] as (l: unknown, v: unknown) => unknown)(list, value));
    }
  });

  it("names a Radio group as antd's Form does, without the Form hook's module (and with it rc-form)", async () => {
    const out = rewritten('radio/group.js');
    expect(out).not.toContain("from '../form/hooks/useForm'");
    expect(out).toContain("import { toArray } from '../form/util';");
    const { toArray } = await import('antd/es/form/util.js');
    const ours = new Function('toArray', `${/^const toNamePathStr = .*$/m.exec(out)![0]}; return toNamePathStr;`)(toArray) as (n: unknown) => string;
    const { toNamePathStr } = await import('antd/es/form/hooks/useForm.js');
    for (const name of [undefined, false, 'machine', 7, ['sites', 0, 'url']]) expect(ours(name), String(name)).toBe(toNamePathStr(name as never));
    // antd's form/util imports nothing: the Radio group takes no other module with it.
    expect(readFileSync(join(antdEs, 'form/util.js'), 'utf8')).not.toMatch(/^import /m);
  });

  it("loads a column filter's dropdown when it first renders, and flattens filter keys as antd does", async () => {
    const out = rewritten('table/hooks/useFilter/index.js');
    expect(out).toContain("ReactForFilterDropdown.lazy(() => import('./FilterDropdown'))");
    expect(out).not.toMatch(/^import FilterDropdown/m);
    const ours = new Function(`${/function flattenKeys[\s\S]*?\n\}/.exec(out)![0]}; return flattenKeys;`)() as (f: unknown) => unknown[];
    const { flattenKeys } = await import('antd/es/table/hooks/useFilter/FilterDropdown.js');
    const filters = [{ text: 'A', value: 'a', children: [{ text: 'B', value: 'b' }, { text: 'C', value: 'c', children: [{ text: 'D', value: 'd' }] }] }, { text: 'E', value: 'e' }];
    expect(ours(filters)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(ours(filters)).toEqual(flattenKeys(filters));
    expect(ours(undefined)).toEqual([]);
  });

  it.each([
    ['input/index.js', 'OTP', './OTP', /^Input\.OTP = OTP;$/m],
    // Only a `tooltip={{ unique: true }}` renders it, which the console never passes.
    ['card/Card.js', 'Tabs', '../tabs', /React\.createElement\(Tabs, \{/],
    ['typography/Base/index.js', 'Editable', '../Editable', /React\.createElement\(Editable, \{/],
    ['result/index.js', 'noFound', './noFound', /^ {2}'404': noFound,$/m],
    ['result/index.js', 'serverError', './serverError', /^ {2}'500': serverError,$/m],
    ['result/index.js', 'unauthorized', './unauthorized', /^ {2}'403': unauthorized$/m],
    ['config-provider/index.js', 'UniqueProvider', '../tooltip/UniqueProvider', /^ {4}childNode = \/\*#__PURE__\*\/React\.createElement\(UniqueProvider, null, childNode\);$/m],
  ])("%s loads its %s when it first renders", async (path, name, from, use) => {
    const out = rewritten(path);
    expect(out).toContain(`ReactFor${name}.lazy(() => import('${from}'))`);
    expect(out).not.toMatch(new RegExp(`^import ${name} from`, 'm'));
    // The name the module uses is still defined, as a component, and React is in scope for it.
    expect(out).toMatch(new RegExp(`^const ${name} = \\(props\\) => ReactFor${name}\\.createElement\\(ReactFor${name}\\.Suspense`, 'm'));
    expect(out).toMatch(new RegExp(`^import \\* as ReactFor${name} from 'react';$`, 'm'));
    expect(out).toMatch(use);
    // What it loads exists and exports the component by default.
    const target = join(antdEs, dirname(path), from);
    const loaded = (await import(existsSync(`${target}.js`) ? `${target}.js` : join(target, 'index.js'))) as { default: unknown };
    expect(typeof loaded.default).toMatch(/function|object/);
  });
});
