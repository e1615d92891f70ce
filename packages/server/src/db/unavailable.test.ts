import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.js';

const failure = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});
/** As Drizzle wraps the driver's error. */
const wrapped = (cause: unknown) => new Error('Failed query: select 1\nparams: ', { cause });

describe('isDatabaseUnavailable', () => {
  it('knows a database that stopped, restarts, is unreachable or full', () => {
    for (const err of [
      failure('terminating connection due to unexpected postmaster exit', '57P01'),
      failure('the database system is starting up', '57P03'),
      failure('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      Object.assign(failure('connect ENOENT /tmp/.s.PGSQL.5432', 'ENOENT'), { syscall: 'connect' }),
      failure('Connection terminated unexpectedly'),
      failure('connect ETIMEDOUT 10.0.0.1:5432', 'ETIMEDOUT'),
      failure('getaddrinfo ENOTFOUND db', 'ENOTFOUND'),
      failure('connection failure', '08006'),
      failure('sorry, too many clients already', '53300'),
      failure('timeout exceeded when trying to connect'),
    ]) {
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
      expect(isDatabaseUnavailable(wrapped(err)), `wrapped: ${err.message}`).toBe(true);
    }
  });

  it('does not take a failed statement or a bug for it', () => {
    for (const err of [
      failure('duplicate key value violates unique constraint "accounts_url_name_key"', '23505'),
      failure('canceling statement due to statement timeout', '57014'),
      failure('value too long for type character varying(10)', '22001'),
      Object.assign(failure("ENOENT: no such file or directory, open '/data/backup.zip'", 'ENOENT'), { syscall: 'open' }),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      undefined,
      'a string',
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
      expect(isDatabaseUnavailable(wrapped(err))).toBe(false);
    }
  });
});
