import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ZInstanceState,
  ZMachinesPage,
  ZOperationDecision,
  ZOperationStatus,
  ZOperationTypeName,
  ZOperationWaitingReason,
  ZSampleData,
  ZTaskStatus,
  ZTaskType,
  type TMachine,
  type TOperation,
  type TTask,
} from '@fleet/contracts';
import { jsonWriter } from './json-writer.js';

// Strings as the database may hold them: quotes, backslashes, control
// characters, emoji and lone surrogates all need JSON's escapes.
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', '"', '\\', '\u0000\n\t', '😀 ünïcødé', '\ud800', '</script>'));
const int = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const oneOf = <T extends string>(values: readonly T[]) => fc.constantFrom(...values);
const jsonMap = fc.dictionary(fc.string(), fc.jsonValue()) as fc.Arbitrary<Record<string, unknown>>;

const task: fc.Arbitrary<TTask> = fc.record({
  id: int,
  machineId: int,
  accountId: int,
  type: oneOf(ZTaskType.options),
  status: oneOf(ZTaskStatus.options),
  description: text,
  progress: fc.integer({ min: 0, max: 100 }),
  queuedAt: text,
  startedAt: nullable(text),
  completedAt: nullable(text),
  error: nullable(text),
});

const operation: fc.Arbitrary<TOperation> = fc.record({
  id: int,
  machineId: int,
  accountId: int,
  machineName: text,
  accountName: text,
  machineClassId: int,
  machineClassName: text,
  type: fc.record({ name: oneOf(ZOperationTypeName.options), description: text }),
  typeName: oneOf(ZOperationTypeName.options),
  operationTypeName: oneOf(ZOperationTypeName.options),
  operationTypeDescription: text,
  timestamp: text,
  notBefore: nullable(text),
  startTime: nullable(text),
  finishTime: nullable(text),
  runningTime: nullable(fc.double({ noNaN: true, noDefaultInfinity: true })),
  user: text,
  status: nullable(oneOf(ZOperationStatus.options)),
  pending: fc.boolean(),
  decision: nullable(oneOf(ZOperationDecision.options)),
  decidedBy: nullable(text),
  params: jsonMap,
  timeout: int,
  failCounter: int,
  operationMode: int,
  activityId: nullable(int),
  waiting: nullable(fc.record({ reason: oneOf(ZOperationWaitingReason.options), message: text })),
});

const machine: fc.Arbitrary<TMachine> = fc.record({
  id: int,
  name: text,
  class: fc.record({ id: int, name: text }),
  classId: int,
  className: text,
  accountId: int,
  account: fc.record({ id: int, name: text }),
  needsAdmin: fc.boolean(),
  failCounter: int,
  operationMode: int,
  tasks: fc.array(task, { maxLength: 3 }),
  operations: fc.array(operation, { maxLength: 2 }),
  bundleVersion: nullable(text),
  instance: nullable(fc.record({ status: oneOf(ZInstanceState.options), cloudId: text, ipAddress: text })),
  cloudInstanceType: nullable(fc.record({ id: int, name: text, storageSize: int })),
  managed: fc.boolean(),
  manualMaintenance: fc.boolean(),
  turbo: fc.boolean(),
  runSmokeTest: fc.boolean(),
  overseeTermination: fc.boolean(),
  stop: fc.boolean(),
  idle: fc.boolean(),
  terminate: fc.boolean(),
  isLauncher: fc.boolean(),
  isSiteMaster: fc.boolean(),
  siteName: nullable(text),
  siteId: nullable(int),
  launcherUrl: nullable(text),
  siteMasterUrl: nullable(text),
  sampleData: oneOf(ZSampleData.options),
  sampleDataFile: nullable(text),
  config: fc.record({ componentConfig: jsonMap, deployerConfig: jsonMap }),
});

describe('jsonWriter', () => {
  const write = jsonWriter(ZMachinesPage);

  it('writes a machines page exactly as JSON.stringify does, whatever the strings, maps and nulls', () => {
    fc.assert(
      fc.property(fc.array(machine, { maxLength: 4 }), fc.nat(), fc.boolean(), (items, totalItems, totalCapped) => {
        const page = { items, totalItems, totalCapped };
        expect(write(page)).toBe(JSON.stringify(page));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves out a property its schema does not have', () => {
    const page = { items: [], totalItems: 0, totalCapped: false, extra: 'not in the contract' };
    expect(JSON.parse(write(page))).toEqual({ items: [], totalItems: 0, totalCapped: false });
  });
});
