/**
 * How a command prints what it got (issue 28 point 4): `--output json` (the
 * API's JSON as it answered, for scripts and `jq`) or `--output table` (the
 * default: the columns a person reads, drawn by cli-table3 without colours).
 * Results go to stdout; messages and errors to stderr.
 */
import Table from 'cli-table3';

export const OUTPUT_FORMATS = ['table', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A table column: its header and what it shows of a row. */
export interface Column<T> {
  header: string;
  value(row: T): unknown;
}

/** A value as a table cell: null and undefined as '', objects as JSON. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Writes `text` and a new line to stdout. */
export function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Prints `value` as JSON (two-space indent). */
export const printJson = (value: unknown) => out(JSON.stringify(value, null, 2));

/**
 * Prints a list: with `json`, `answer` (the API's whole answer, its paging
 * included); with `table`, `rows` in `columns`, then `footer` when given
 * (such as '20 of 1,234').
 */
export function printList<T>(format: OutputFormat, answer: unknown, rows: T[], columns: Column<T>[], footer?: string): void {
  if (format === 'json') return printJson(answer);
  const table = new Table({ head: columns.map((c) => c.header), style: { head: [], border: [] } });
  for (const row of rows) table.push(columns.map((c) => cell(c.value(row))));
  out(rows.length === 0 ? 'Nothing found.' : table.toString());
  if (footer) out(footer);
}

/** Prints one object: with `json` as it is; with `table`, a two-column table of `fields`. */
export function printRecord<T>(format: OutputFormat, record: T, fields: Column<T>[]): void {
  if (format === 'json') return printJson(record);
  const table = new Table({ style: { head: [], border: [] } });
  for (const f of fields) table.push({ [f.header]: cell(f.value(record)) });
  out(table.toString());
}
