import { describe, expect, it } from 'vitest';
import { readUpdaterParams, selectionQueryOf, updaterLinkForAccounts, updaterLinkForQuery } from './use-updater-params';

describe('updater URL state', () => {
  it('reads mode, classes and search; account-list filters only in account mode', () => {
    const machine = readUpdaterParams(new URLSearchParams('classIds=2,999,4&search= north &saasImage=x'));
    expect(machine).toMatchObject({ mode: 'machine', classIds: [2, 4], query: { classIds: '2,4', search: 'north' }, extraFilters: [] });
    expect(machine.query.saasImage).toBeUndefined();
    const account = readUpdaterParams(new URLSearchParams('mode=account&saasImage=img&machineStatusInclude=Stopped'));
    expect(account.query).toEqual({ classIds: undefined, search: undefined, saasImage: 'img', machineStatusInclude: 'Stopped' });
    expect(account.extraFilters).toEqual(['saasImage=img', 'machineStatusInclude=Stopped']);
  });

  it("builds 'Update these accounts' links and saved queries that read back the same", () => {
    const link = updaterLinkForAccounts({ search: 'north', classIds: [1, 2], machineStatusExclude: ['Stopped'] });
    expect(link).toBe('/updater?mode=account&classIds=1%2C2&search=north&machineStatusExclude=Stopped');
    const state = readUpdaterParams(new URLSearchParams(link.split('?')[1]));
    const saved = selectionQueryOf(state.query);
    expect(saved).toBe('classIds=1%2C2&search=north&machineStatusExclude=Stopped');
    expect(updaterLinkForQuery(saved)).toBe('/updater?classIds=1%2C2&search=north&machineStatusExclude=Stopped&mode=account');
  });
});
