import { describe, expect, it } from 'vitest';
import { batchConfigKeys, machineConfigsToSave } from './batch-configs';

const current = [
  { machineId: 1, config: { 'logging.level': 'Information', 'auditChangeLog.retentionDays': 365, 'custom.extra': { keep: true } } },
  { machineId: 2, config: { 'logging.level': 'Information' } },
];

describe('machineConfigsToSave', () => {
  it("keeps each machine's own keys, changes an edited key on all, adds an edited key a machine lacks", () => {
    expect(machineConfigsToSave(current, { 'auditChangeLog.retentionDays': 400 })).toEqual({
      '1': { 'logging.level': 'Information', 'auditChangeLog.retentionDays': 400, 'custom.extra': { keep: true } },
      '2': { 'logging.level': 'Information', 'auditChangeLog.retentionDays': 400 },
    });
  });

  it('without edits, saves each machine as it is', () => {
    expect(machineConfigsToSave(current, {})).toEqual({ '1': current[0]!.config, '2': current[1]!.config });
  });
});

describe('batchConfigKeys', () => {
  it('lists current and default keys, shared only when every machine holds the same value', () => {
    const defaults = [
      { machineId: 1, config: { 'logging.level': 'Warning', 'client.theme': 'dark' } },
      { machineId: 2, config: { 'logging.level': 'Warning', 'client.theme': 'dark' } },
    ];
    expect(batchConfigKeys(current, defaults)).toEqual([
      { key: 'auditChangeLog.retentionDays', shared: 'differs' },
      { key: 'client.theme', shared: 'unset' },
      { key: 'custom.extra', shared: 'differs' },
      { key: 'logging.level', shared: { value: 'Information' } },
    ]);
  });
});
