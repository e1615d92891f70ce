/**
 * The URL readers of the States, Request Statistics and Issue viewers (issue
 * 24 point 7): what a URL holds becomes the server's query, values that are
 * not valid are ignored rather than sent, a branch needs a component and a
 * desired state has no time range or order.
 */
import { describe, expect, it } from 'vitest';
import { readIssuesFilter } from '../issues/use-issues-params';
import { readRequestStatisticsFilter, requestStatisticsPageQuery } from '../request-statistics/request-statistics-filter';
import { readStatesFilter, statesPageQuery } from './states-filter';
import { readClassParam, readTimeParam } from './use-viewer-params';

const params = (query: string) => new URLSearchParams(query);
const FROM = '2026-11-28T09:00:00.000Z';
const TO = '2026-11-28T10:00:00.000Z';

describe('the shared readers', () => {
  it('read a class id and a time, ignoring others', () => {
    expect(readClassParam(params('class=2'))).toBe(2);
    for (const bad of ['class=99', 'class=abc', 'class=', '']) expect(readClassParam(params(bad))).toBeUndefined();
    expect(readTimeParam(params(`from=${FROM}`), 'from')).toBe(FROM);
    for (const bad of ['from=yesterday', `from=${'9'.repeat(41)}`, 'from=']) expect(readTimeParam(params(bad), 'from')).toBeUndefined();
  });
});

describe('States viewer', () => {
  it('reads kind, class, component, branch, time range and order into the page query', () => {
    const filter = readStatesFilter(params(`state=historical&class=2&component=siteMaster&branch=release/8.2&from=${FROM}&to=${TO}&sort=timestamp&order=asc`));
    expect(statesPageQuery({ machineId: 7, page: 3, pageSize: 50, filter })).toEqual({
      state: 'Historical',
      machineId: 7,
      startIndex: 100,
      limit: 50,
      classId: 2,
      component: 'siteMaster',
      branch: 'release/8.2',
      from: FROM,
      to: TO,
      sort: 'timestamp',
      order: 'asc',
    });
  });

  it('ignores a branch without a component, unknown values, and the time range and order of desired states', () => {
    expect(readStatesFilter(params('branch=master&component=kernel&class=0&sort=name'))).toEqual({ state: 'Current' });
    const desired = readStatesFilter(params(`state=desired&component=launcher&branch=master&from=${FROM}&sort=timestamp&order=asc`));
    expect(desired).toEqual({ state: 'Desired', component: 'launcher', branch: 'master' });
  });
});

describe('Request Statistics viewer', () => {
  it('reads class, outcome, time range and order into the page query; ignores unknown values', () => {
    const filter = readRequestStatisticsFilter(params(`class=4&status=failure&from=${FROM}&sort=machine&order=asc`));
    expect(requestStatisticsPageQuery({ page: 2, pageSize: 20, filter })).toMatchObject({
      startIndex: 20,
      limit: 20,
      classId: 4,
      status: 'failure',
      from: FROM,
      sort: 'machine',
      order: 'asc',
    });
    expect(readRequestStatisticsFilter(params('status=ok&sort=url&to=soon'))).toEqual({});
    // An order without its sort is the default order.
    expect(readRequestStatisticsFilter(params('sort=lastUpdate')).sort).toEqual({ sort: 'lastUpdate', order: 'desc' });
  });
});

describe('Issue viewer', () => {
  it('reads class, last-seen range and order; ignores unknown values', () => {
    expect(readIssuesFilter(params(`class=1&from=${FROM}&to=${TO}&sort=count&order=asc`))).toEqual({
      classId: 1,
      from: FROM,
      to: TO,
      sort: { sort: 'count', order: 'asc' },
    });
    expect(readIssuesFilter(params('class=x&from=no&sort=machine'))).toEqual({});
  });
});
