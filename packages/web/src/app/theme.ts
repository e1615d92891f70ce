/**
 * The console's antd theme (DESIGN §10): antd's default look with the colours
 * that fall short of WCAG 2.1 AA contrast (4.5:1 for text) darkened, so that
 * axe finds no contrast violation on any screen (issue 9 §7,
 * e2e/accessibility.spec.ts).
 *
 * - Primary, link and info blue: blue-7 instead of blue-6 (white text on a
 *   primary button 6.2:1 instead of 4.1:1). A hovered link: blue-8, darker instead
 *   of lighter (9:1 instead of 2.7:1 on a hovered table row).
 * - Error red: red-7 (danger buttons' text and white on red 5.6:1 instead of 3.3:1);
 *   success green: green-8 (a success tag's text 5.5:1 instead of 2.2:1); warning:
 *   gold-9 (a warning tag's text 6.4:1 instead of 1.8:1).
 * - Secondary text (descriptions, breadcrumbs, hints): 60 % black instead of 45 %
 *   (5.7:1 on white instead of 3.4:1); placeholders 56 % black instead of 25 %
 *   (4.9:1 instead of 1.8:1). Disabled controls keep antd's faint text: WCAG
 *   exempts inactive controls.
 * - The text of the light preset tags (orange, gold, green, volcano, cyan, lime)
 *   one or two shades darker than their 7th, on their unchanged light background.
 *   Each shade is set under both of antd's names (`orange7` and the legacy
 *   `orange-7`): both become the one CSS variable `--ant-orange-7`, and the
 *   legacy name, written last, would win.
 */
import type { ThemeConfig } from 'antd';

const TAG_TEXT = { orange: '#ad4e00', gold: '#874d00', green: '#237804', volcano: '#ad2102', cyan: '#006d75', lime: '#3f6600' } as const;

/** The error red (antd's red-7), also the colour of error text outside antd's components (the login form's). */
export const ERROR_RED = '#cf1322';

export const ACCESSIBLE_TOKENS: ThemeConfig['token'] = {
  colorPrimary: '#0958d9',
  colorInfo: '#0958d9',
  colorLink: '#0958d9',
  colorLinkHover: '#003eb3',
  colorError: ERROR_RED,
  colorSuccess: '#237804',
  // antd derives these from the seed; from a dark seed they turn grey: keep the
  // light shades (1 and 3) of antd's own green and gold.
  colorSuccessBg: '#f6ffed',
  colorSuccessBorder: '#b7eb8f',
  colorWarning: '#874d00',
  colorWarningBg: '#fffbe6',
  colorWarningBorder: '#ffe58f',
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorTextDescription: 'rgba(0, 0, 0, 0.6)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
  ...Object.fromEntries(Object.entries(TAG_TEXT).flatMap(([name, hex]) => [[`${name}7`, hex], [`${name}-7`, hex]])),
};

/**
 * The theme of the whole console; `motion` off for users who ask for reduced
 * motion. `zeroRuntime`: antd's components do not write their styles at run
 * time; `main.tsx` loads antd's static `antd/dist/antd.css`, whose rules read
 * the CSS variables this theme sets (issue 23, the suite's time: about a tenth
 * of a page load's script).
 */
export function consoleTheme({ reducedMotion }: { reducedMotion: boolean }): ThemeConfig {
  return { token: { ...ACCESSIBLE_TOKENS, motion: !reducedMotion }, zeroRuntime: true };
}
