/**
 * One log of one operation (its output, or its deployer log) on its way to
 * the server (`POST /mma-agent/operations/{id}/append`, README "Invariants"):
 * lines are buffered as they come, each stamped with the ISO UTC time and a
 * space as the server's own lines are (`logLine` in the server's
 * `agent.repository.ts`), and sent in order by {@link LogStream.flush}.
 *
 * - Offsets count Unicode code points (`[...text].length`, PostgreSQL's
 *   `char_length`); the first is the claim's `outputOffset` or
 *   `deployerLogOffset` (a resumed operation keeps what the lost attempt wrote).
 * - One append carries whole lines of at most {@link MMA_APPEND_MAX_CHARS}
 *   UTF-16 units (the server's limit); a longer line is cut into lines that fit.
 * - A failed append keeps its lines buffered and the next flush sends them again
 *   at the same offset: when the answer, not the append, was lost, the server
 *   finds the text already there and writes it once.
 * - A stream is capped below {@link MMA_LOG_MAX_CHARS}: past it, one line says
 *   so and the rest is dropped.
 * - 409 or 404 (the lease is lost): the stream is `lost`, drops what it holds
 *   and ignores later lines; the error goes to the caller.
 */
import { MMA_APPEND_MAX_CHARS, MMA_LOG_MAX_CHARS, type TMmaAppendRequest, type TMmaLogPiece } from '@fleet/contracts';
import { HttpError, isLeaseLost } from './client.js';
import type { MmaLogger } from './logger.js';

/** Room kept under the log's cap for the line that says it was truncated, code points. */
const TRUNCATION_RESERVE = 1_000;
/** `2026-11-27T10:00:00.000Z `, and the newline. */
const STAMP_CHARS = 26;

export interface LogStream {
  readonly stream: TMmaAppendRequest['stream'];
  /** The stream's length on the server as last answered (code points). */
  readonly offset: number;
  /** Lines buffered, not yet confirmed by the server. */
  readonly pendingLines: number;
  /** True once an append answered that the lease is lost. */
  readonly lost: boolean;
  /** Buffers `text` as lines stamped with `at` (a text with newlines is several lines; a trailing `\r` is dropped). */
  write(text: string, at?: Date): void;
  /**
   * Sends everything buffered (with `keepLast`, all but the last append's
   * worth), in order, one append at a time (flushes queue behind each
   * other). Rejects with the append's error: the lines stay buffered (a
   * transient failure the client gave up on, when the caller's signal
   * aborted), or are dropped when the lease is lost (409/404) or the server
   * refused them (another 4xx, logged).
   */
  flush(signal?: AbortSignal, o?: { keepLast?: boolean }): Promise<void>;
  /**
   * For the finish, after `flush(signal, { keepLast: true })`: takes the
   * buffered lines (one append's worth at most) out of the buffer and answers
   * them with their offset, for the finish to carry; undefined when nothing is
   * buffered or the stream is lost. Nothing is written after it.
   */
  takeLast(): TMmaLogPiece | undefined;
}

export interface LogStreamOptions {
  stream: TMmaAppendRequest['stream'];
  /** The claim's offset of this stream. */
  offset: number;
  /** The append call (the client's, with the operation and attempt bound): answers the new offset. */
  send(body: { stream: TMmaAppendRequest['stream']; offset: number; text: string }, signal?: AbortSignal): Promise<number>;
  log?: MmaLogger;
  /** Most UTF-16 units per append (default {@link MMA_APPEND_MAX_CHARS}; smaller in tests). */
  maxChars?: number;
  /** The cap of the stream, code points (default {@link MMA_LOG_MAX_CHARS}). */
  capChars?: number;
}

/** `text` cut into pieces of at most `max` UTF-16 units, never inside a surrogate pair. */
function cut(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let piece = '';
  for (const ch of text) {
    if (piece.length + ch.length > max) {
      pieces.push(piece);
      piece = '';
    }
    piece += ch;
  }
  if (piece !== '' || pieces.length === 0) pieces.push(piece);
  return pieces;
}

const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

export function createLogStream({ stream, offset: start, send, log, maxChars = MMA_APPEND_MAX_CHARS, capChars = MMA_LOG_MAX_CHARS }: LogStreamOptions): LogStream {
  let offset = start;
  let lost = false;
  let truncated = false;
  /** Buffered lines, each with its newline and at most `maxChars` units. */
  const lines: string[] = [];
  let bufferedChars = 0;
  let tail: Promise<void> = Promise.resolve();

  function push(line: string) {
    lines.push(line);
    bufferedChars += codePoints(line);
  }

  /** The first buffered lines that fit one append: their text and how many. */
  function nextPiece() {
    let text = '';
    let n = 0;
    while (n < lines.length && text.length + lines[n]!.length <= maxChars) text += lines[n++];
    return { text, n };
  }

  /** Sends the buffered lines in appends; with `keepLast`, the last append's worth stays buffered. */
  async function drain(signal?: AbortSignal, keepLast = false) {
    while (lines.length > 0 && !lost) {
      const { text, n } = nextPiece();
      if (keepLast && n === lines.length) return;
      try {
        offset = await send({ stream, offset, text }, signal);
      } catch (err) {
        if (isLeaseLost(err)) {
          lost = true;
          lines.length = 0;
          bufferedChars = 0;
        } else if (err instanceof HttpError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 429) {
          // Refused as it is: sending it again would be refused again.
          log?.error(`Append refused; ${n} line(s) dropped`, { stream, status: err.status, detail: err.detail });
          lines.splice(0, n);
          bufferedChars -= codePoints(text);
        }
        throw err;
      }
      lines.splice(0, n);
      bufferedChars -= codePoints(text);
    }
  }

  return {
    stream,
    get offset() {
      return offset;
    },
    get pendingLines() {
      return lines.length;
    },
    get lost() {
      return lost;
    },
    write(text, at = new Date()) {
      if (lost || truncated) return;
      const stamp = at.toISOString();
      for (const raw of text.replace(/\r?\n$/, '').split('\n')) {
        for (const piece of cut(raw.replace(/\r$/, ''), maxChars - STAMP_CHARS)) {
          const line = `${stamp} ${piece}\n`;
          if (offset + bufferedChars + codePoints(line) > capChars - TRUNCATION_RESERVE) {
            truncated = true;
            push(`${stamp} [mma] ${stream} truncated: it reached ${capChars - TRUNCATION_RESERVE} characters; later lines are dropped\n`);
            return;
          }
          push(line);
        }
      }
    },
    flush(signal, o = {}) {
      const run = tail.catch(() => undefined).then(() => drain(signal, o.keepLast));
      tail = run;
      return run;
    },
    takeLast() {
      if (lost || lines.length === 0) return undefined;
      const { text, n } = nextPiece();
      const piece = { offset, text };
      const chars = codePoints(text);
      lines.splice(0, n);
      offset += chars;
      bufferedChars -= chars;
      return piece;
    },
  };
}
