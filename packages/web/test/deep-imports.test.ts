import { readFileSync } from 'node:fs';
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
