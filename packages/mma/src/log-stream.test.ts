/**
 * The log stream (`log-stream.ts`) against a fake server that keeps the text
 * as the real one does (`appendAt`: offsets in code points, a retry's text
 * written once, a gap refused): timestamps, offsets with multi-byte and astral
 * characters, appends cut at the size limit on whole lines, a long line cut,
 * a retry after a lost answer, a lost lease, the cap.
 */
import { describe, expect, it } from 'vitest';
import { HttpError } from './client.js';
import { createLogStream } from './log-stream.js';

/** A server's stream: `append` as `appendAt` does, with faults to inject. */
function fakeServer(initial = '') {
  let text = initial;
  const calls: { offset: number; text: string }[] = [];
  const faults: ('lose-answer' | 'fail' | 'conflict' | 'bad-request')[] = [];
  const chars = () => [...text].length;
  return {
    calls,
    faults,
    text: () => text,
    async send(body: { offset: number; text: string }) {
      calls.push({ offset: body.offset, text: body.text });
      const fault = faults.shift();
      if (fault === 'fail') throw new TypeError('fetch failed');
      if (fault === 'conflict') throw new HttpError(409, 'The lease is lost', 'append');
      if (fault === 'bad-request') throw new HttpError(400, 'One or more fields are invalid', 'append');
      if (body.offset > chars()) throw new HttpError(409, 'gap', 'append');
      const given = [...body.text];
      text += given.slice(chars() - body.offset).join('');
      const answer = Math.max(chars(), body.offset + given.length);
      if (fault === 'lose-answer') throw new TypeError('fetch failed: socket hang up');
      return answer;
    },
  };
}

const at = new Date('2026-11-27T10:00:00.000Z');
const STAMP = '2026-11-27T10:00:00.000Z ';

describe('log stream', () => {
  it('stamps each line, starts at the claim’s offset, and counts code points', async () => {
    // What a lost attempt wrote: 6 code points (7 UTF-16 units).
    const server = fakeServer('xxxx🚀\n');
    const stream = createLogStream({ stream: 'output', offset: 6, send: (b) => server.send(b) });
    stream.write('déjà vu 🚀 ✓', at);
    stream.write('two\nlines\r\n', at);
    await stream.flush();
    const expected = `${STAMP}déjà vu 🚀 ✓\n${STAMP}two\n${STAMP}lines\n`;
    expect(server.text()).toBe(`xxxx🚀\n${expected}`);
    expect(server.calls).toEqual([{ offset: 6, text: expected }]);
    // 🚀 is two UTF-16 units but one code point: the offset is the server's char_length.
    expect(stream.offset).toBe(6 + [...expected].length);
    expect(stream.offset).toBe(6 + expected.length - 1);
    stream.write('more', at);
    await stream.flush();
    expect(server.calls[1]!.offset).toBe(6 + [...expected].length);
    expect(stream.pendingLines).toBe(0);
  });

  it('sends whole lines of at most maxChars per append, and cuts a longer line (never inside a surrogate pair)', async () => {
    const server = fakeServer();
    const stream = createLogStream({ stream: 'deployerLog', offset: 0, send: (b) => server.send(b), maxChars: 60 });
    for (const n of [1, 2, 3]) stream.write(`line ${n} ${'a'.repeat(10)}`, at);
    stream.write('🚀'.repeat(30), at);
    await stream.flush();
    for (const call of server.calls) {
      expect(call.text.length).toBeLessThanOrEqual(60);
      expect(call.text.endsWith('\n')).toBe(true);
      expect(call.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
    expect(server.calls.length).toBeGreaterThanOrEqual(4);
    const lines = server.text().split('\n').filter(Boolean);
    expect(lines.slice(0, 3)).toEqual([1, 2, 3].map((n) => `${STAMP}line ${n} aaaaaaaaaa`));
    expect(lines.slice(3).map((l) => l.slice(STAMP.length)).join('')).toBe('🚀'.repeat(30));
    expect(stream.offset).toBe([...server.text()].length);
  });

  it('sends a chunk again at the same offset after a lost answer, and the server keeps it once', async () => {
    const server = fakeServer();
    const stream = createLogStream({ stream: 'output', offset: 0, send: (b) => server.send(b) });
    stream.write('first', at);
    server.faults.push('lose-answer');
    await expect(stream.flush()).rejects.toThrow('socket hang up');
    expect(stream.pendingLines).toBe(1);
    stream.write('second', at);
    await stream.flush();
    expect(server.text()).toBe(`${STAMP}first\n${STAMP}second\n`);
    expect(server.calls.map((c) => c.offset)).toEqual([0, 0]);
    expect(stream.offset).toBe([...server.text()].length);
  });

  it('keeps lines through a failure and queues flushes one behind the other', async () => {
    const server = fakeServer();
    const stream = createLogStream({ stream: 'output', offset: 0, send: (b) => server.send(b), maxChars: 40 });
    stream.write('a', at);
    stream.write('b', at);
    server.faults.push('fail');
    const first = stream.flush();
    const second = stream.flush();
    await expect(first).rejects.toThrow('fetch failed');
    await second;
    expect(server.text()).toBe(`${STAMP}a\n${STAMP}b\n`);
  });

  it('is lost on 409: drops its lines and ignores later ones', async () => {
    const server = fakeServer();
    const stream = createLogStream({ stream: 'output', offset: 0, send: (b) => server.send(b) });
    stream.write('a', at);
    server.faults.push('conflict');
    await expect(stream.flush()).rejects.toMatchObject({ status: 409 });
    expect(stream.lost).toBe(true);
    stream.write('b', at);
    await stream.flush();
    expect(stream.pendingLines).toBe(0);
    expect(server.calls).toHaveLength(1);
  });

  it('drops a chunk the server refuses as invalid (400) and goes on', async () => {
    const server = fakeServer();
    const stream = createLogStream({ stream: 'output', offset: 0, send: (b) => server.send(b) });
    stream.write('refused', at);
    server.faults.push('bad-request');
    await expect(stream.flush()).rejects.toMatchObject({ status: 400 });
    stream.write('next', at);
    await stream.flush();
    expect(server.text()).toBe(`${STAMP}next\n`);
  });

  it('keeps the last append’s worth for the finish: sends what comes before it, then hands it over with its offset', async () => {
    const server = fakeServer('🚀\n');
    const stream = createLogStream({ stream: 'output', offset: 2, send: (b) => server.send(b), maxChars: 60 });
    // A short log: nothing is sent, all of it goes with the finish.
    stream.write('only ✓', at);
    await stream.flush(undefined, { keepLast: true });
    expect(server.calls).toEqual([]);
    expect(stream.takeLast()).toEqual({ offset: 2, text: `${STAMP}only ✓\n` });
    expect(stream.pendingLines).toBe(0);
    expect(stream.takeLast()).toBeUndefined();

    // A longer one: the appends before the last, whose piece starts where they end.
    const long = createLogStream({ stream: 'output', offset: 0, send: (b) => server.send(b), maxChars: 60 });
    for (const n of [1, 2, 3, 4]) long.write(`line ${n} ${'a'.repeat(10)}`, at);
    await long.flush(undefined, { keepLast: true });
    expect(server.calls.length).toBeGreaterThan(0);
    const piece = long.takeLast()!;
    expect(piece.text.length).toBeLessThanOrEqual(60);
    expect(piece.text.endsWith(`line 4 ${'a'.repeat(10)}\n`)).toBe(true);
    expect(piece.offset).toBe(server.calls.at(-1)!.offset + [...server.calls.at(-1)!.text].length);

    // A lost stream hands nothing over.
    const lost = createLogStream({ stream: 'output', offset: 0, send: (b) => server.send(b), maxChars: 60 });
    for (const n of [1, 2, 3]) lost.write(`line ${n} ${'a'.repeat(20)}`, at);
    server.faults.push('conflict');
    await expect(lost.flush(undefined, { keepLast: true })).rejects.toMatchObject({ status: 409 });
    expect(lost.takeLast()).toBeUndefined();
  });

  it('stops at its cap with one line that says so', async () => {
    const server = fakeServer();
    const stream = createLogStream({ stream: 'output', offset: 0, send: (b) => server.send(b), capChars: 1_100 });
    for (let i = 0; i < 10; i++) stream.write(`line ${i}`, at);
    await stream.flush();
    const lines = server.text().trimEnd().split('\n');
    // Three lines of 32 code points fit under 1 100 − 1 000 reserved for the last line.
    expect(lines.slice(0, 3).map((l) => l.slice(STAMP.length))).toEqual(['line 0', 'line 1', 'line 2']);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe(`${STAMP}[mma] output truncated: it reached 100 characters; later lines are dropped`);
  });
});
