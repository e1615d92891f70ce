/**
 * The MMA's own log (not an operation's): one line per event on a writable
 * (stderr by default), `2026-11-27T10:00:00.000Z info  message key=value`.
 * Small on purpose: an MMA runs beside the operators' tools, which read lines.
 */

export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** What the MMA's parts log through; a test hands in {@link createMemoryLogger}'s. */
export interface MmaLogger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

type Level = 'info' | 'warn' | 'error';

const format = (level: Level, message: string, fields: LogFields = {}) => {
  const extra = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v)}`)
    .join(' ');
  return `${new Date().toISOString()} ${level.padEnd(5)} ${message}${extra ? ` ${extra}` : ''}\n`;
};

/** A logger writing lines to `out` (default `process.stderr`). */
export function createLogger(out: { write(text: string): unknown } = process.stderr): MmaLogger {
  const at = (level: Level) => (message: string, fields?: LogFields) => void out.write(format(level, message, fields));
  return { info: at('info'), warn: at('warn'), error: at('error') };
}

/** A logger that keeps its lines (`lines`, each without its time) for tests. */
export function createMemoryLogger(): MmaLogger & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: Level) => (message: string, fields?: LogFields) => void lines.push(format(level, message, fields).slice(25).trimEnd());
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}
