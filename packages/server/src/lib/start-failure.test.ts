/** Start failures in words (issue 9 "Crash and restart"): never a bare `undefined`. */
import { describe, expect, it } from 'vitest';
import { isDatabaseGone } from '../db/client.js';
import { describeStartFailure, StartFailure } from './start-failure.js';

/** An error as Node's net module or node-postgres makes it. */
const codeError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('describeStartFailure', () => {
  it('names a non-Error rejection instead of printing undefined', () => {
    const d = describeStartFailure(undefined);
    expect(d.message).toContain('rejected with undefined');
    expect(d.hint).toMatch(/LOG_LEVEL=trace/);
  });

  it('keeps the cause and advice of a StartFailure', () => {
    expect(describeStartFailure(new StartFailure('the data folder is in use', 'Stop that server first.'))).toEqual({
      message: 'the data folder is in use',
      hint: 'Stop that server first.',
    });
  });

  it('says which HTTP port is taken', () => {
    const d = describeStartFailure(codeError('listen EADDRINUSE: address already in use 0.0.0.0:3000', { code: 'EADDRINUSE', syscall: 'listen', port: 3000 }));
    expect(d).toEqual({ message: 'port 3000 is already in use by another process', hint: expect.stringContaining('set PORT') });
  });

  it('finds the refused connection inside a wrapped query error', () => {
    const refused = codeError('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', address: '127.0.0.1', port: 5432 });
    const wrapped = new Error('Failed query: CREATE SCHEMA IF NOT EXISTS "drizzle"', { cause: refused });
    expect(describeStartFailure(wrapped)).toEqual({
      message: 'cannot reach the database at 127.0.0.1:5432 (ECONNREFUSED)',
      hint: expect.stringContaining('DATABASE_URL'),
    });
  });

  it('answers a wrong password and a missing database with what to correct', () => {
    expect(describeStartFailure(codeError('password authentication failed for user "x"', { code: '28P01' })).hint).toContain('password');
    expect(describeStartFailure(codeError('database "fleet" does not exist', { code: '3D000' })).hint).toContain('createdb');
  });

  it('marks any other error unknown, so that its stack is printed too', () => {
    expect(describeStartFailure(new Error('boom'))).toMatchObject({ message: 'boom', unknown: true });
  });
});

describe('isDatabaseGone', () => {
  it('is true for a stopping or stopped database, also wrapped by Drizzle', () => {
    expect(isDatabaseGone(codeError('the database system is shutting down', { code: '57P03' }))).toBe(true);
    expect(isDatabaseGone(new Error('Failed query: select 1', { cause: codeError('terminating connection due to administrator command', { code: '57P01' }) }))).toBe(true);
    expect(isDatabaseGone(new Error('Cannot use a pool after calling end on the pool'))).toBe(true);
  });

  it('is false for a failed statement or a non-error', () => {
    expect(isDatabaseGone(codeError('duplicate key value violates unique constraint', { code: '23505' }))).toBe(false);
    expect(isDatabaseGone(undefined)).toBe(false);
  });
});
