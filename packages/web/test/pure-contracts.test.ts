import { describe, expect, it } from 'vitest';
import { parseAst } from 'rolldown/parseAst';
import { markPure } from '../build/pure-contracts.ts';

const mark = (code: string) => markPure(code, (source) => parseAst(source));

describe('the pure contracts transform', () => {
  it('wraps each module-level value that calls, spreads or reads a property in a pure call, exported or not', () => {
    expect(mark("export const ZA = z.object({ ...ZBase.shape, b: z.string() });\nconst KEYS = Object.keys(ZA.shape);\n")).toBe(
      "export const ZA = /* @__PURE__ */ (() => (z.object({ ...ZBase.shape, b: z.string() })))();\nconst KEYS = /* @__PURE__ */ (() => (Object.keys(ZA.shape)))();\n",
    );
  });

  it('leaves literals, functions and imports as they are', () => {
    const code = "import { z } from 'zod';\nexport const LABELS = ['a', 'b'];\nexport const MAX = 10;\nexport const parse = (v) => z.string().parse(v);\nexport function f() { return z.number(); }\n";
    expect(mark(code)).toBe(code);
  });

  it('marks the calls of any other module-level statement pure', () => {
    expect(mark('register(z.string());\n')).toBe('/* @__PURE__ */ register(/* @__PURE__ */ z.string());\n');
  });

  it('keeps the meaning: the wrapped module evaluates to the same values', () => {
    const code = 'const base = { a: 1 };\nexport const merged = { ...base, b: [base.a, 2].map((x) => x * 2) };\n';
    const run = (source: string) => new Function(`${source.replace(/export /g, '')}; return merged;`)() as unknown;
    expect(run(mark(code))).toEqual(run(code));
    expect(run(mark(code))).toEqual({ a: 1, b: [2, 4] });
  });
});
