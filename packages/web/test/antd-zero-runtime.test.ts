import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAst } from 'rolldown/parseAst';
import { ANTD_STYLE_MODULE, dropStyleFunctions, NO_STYLE } from '../build/antd-zero-runtime.ts';

const drop = (code: string) => dropStyleFunctions(code, (source) => parseAst(source));
const antdEs = join(dirname(createRequire(import.meta.url).resolve('antd/package.json')), 'es');

/** Every `.js` file under `dir`. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));
}

describe('the antd zero-runtime transform', () => {
  it("replaces the style function of each style hook factory and keeps the component tokens and options", () => {
    const code =
      "const genShared = (token) => ({ [token.componentCls]: { color: token.colorText } });\n" +
      "export const prepareComponentToken = (token) => ({ paddingInline: token.padding });\n" +
      "export default genStyleHooks('Button', (token) => [genShared(token)], prepareComponentToken, { unitless: { fontWeight: true } });\n" +
      "export const Compact = genSubStyleComponent(['Button', 'compact'], genShared, prepareComponentToken);\n";
    expect(drop(code)).toBe(
      "const genShared = (token) => ({ [token.componentCls]: { color: token.colorText } });\n" +
        "export const prepareComponentToken = (token) => ({ paddingInline: token.padding });\n" +
        `export default genStyleHooks('Button', ${NO_STYLE}, prepareComponentToken, { unitless: { fontWeight: true } });\n` +
        `export const Compact = genSubStyleComponent(['Button', 'compact'], ${NO_STYLE}, prepareComponentToken);\n`,
    );
  });

  it('leaves a module without a style hook factory call alone', () => {
    expect(drop("export const genFocusStyle = (token) => ({ outline: token.lineWidthFocus });\nuseStyle('x', () => []);\n")).toBeNull();
  });

  it("transforms antd's own style modules: the generators go, the tokens stay", () => {
    const modules = files(antdEs).filter((f) => ANTD_STYLE_MODULE.test(f));
    const transformed = modules.filter((f) => drop(readFileSync(f, 'utf8')) !== null);
    // antd 6 has 83 such modules; far fewer means its helpers were renamed and this plugin no longer drops anything.
    expect(transformed.length).toBeGreaterThan(70);

    const button = drop(readFileSync(join(antdEs, 'button/style/index.js'), 'utf8'))!;
    expect(button).toMatch(/genStyleHooks\('Button', \(\) => \[\], prepareComponentToken, \{/);
    expect(button).not.toMatch(/genSharedButtonStyle\(buttonToken\)/);
  });

  it('matches the style modules by path, not other antd modules', () => {
    expect(ANTD_STYLE_MODULE.test('/x/node_modules/antd/es/button/style/index.js')).toBe(true);
    expect(ANTD_STYLE_MODULE.test('/x/node_modules/antd/es/_util/wave/style.js')).toBe(true);
    expect(ANTD_STYLE_MODULE.test('/x/node_modules/antd/es/button/Button.js')).toBe(false);
    expect(ANTD_STYLE_MODULE.test('/x/node_modules/other/es/button/style/index.js')).toBe(false);
  });
});
