/**
 * Calls that queue, decide and reset operations (spec 2 §2.3, §4, §7 Machines,
 * §8 toasts: success 2 s, error 5 s), one hook per call. Every call that
 * queues operations answers `{operations}`; each goes straight into the cache
 * (`applyOperation`), so the status column changes at once.
 *
 * Error toasts: where spec 2 §8 says the server's message is shown (reset last
 * operation, test latest code, queue operation), it is shown instead of the
 * spec's text when the server sent one (`serverMessageOr`); elsewhere the
 * server's detail follows the spec's text, as for the other machine calls.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  TCreateAmiRequest,
  TForcePopulateRequest,
  TMachine,
  TOperation,
  TOperationDecision,
  TPublishSampleDataRequest,
  TQueuedOperationsResponse,
  TRestoreBackupRequest,
  TTestLatestCodeRequest,
  TUpdateMachineRequest,
} from '@fleet/contracts';
import { api, ApiError } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { operationKeys } from '../../operations/api/keys';
import { withDetail } from './mutations';
import { applyOperation } from './operation-cache';
import { applyMachine, refreshMachine } from './task-cache';

/** The server's message when it sent one, else the specification's text. */
export function serverMessageOr(text: string, error: unknown): string {
  return error instanceof ApiError && error.detail ? error.detail : text;
}

interface MachineRef {
  id: number;
  name: string;
}

/** Toasts of one call (spec 2 §8); `serverMessage`: the server's message replaces the error text. */
interface CallToasts {
  success: string;
  error: string;
  serverMessage?: boolean;
}

export const OPERATION_TOASTS = {
  queue: { success: 'Operation queued for machine', error: 'Error occurred queueing operation for machine', serverMessage: true },
  forceBackup: { success: 'Backup has been forced for this machine', error: 'Error occurred forcing backup for machine' },
  forcePopulate: { success: 'Populate has been forced for this machine', error: 'Error occurred forcing populate for machine' },
  restoreBackup: { success: 'Restoration of backup(s) has been queued for this machine', error: 'Error occurred restoring backup(s) for machine' },
  publishSampleData: { success: 'Sample data publishing has been started for this machine', error: 'Error occurred publishing sample data' },
  createAmi: { success: 'Jump-start AMI creation from this machine has been started', error: 'Error occurred creating jump-start AMI from machine' },
  testLatestCode: { success: 'Testing started for machine', error: 'Error occurred starting testing for machine', serverMessage: true },
  resetLastOperation: { success: 'Last active operation has been reset', error: 'Error occurred resetting last active operation', serverMessage: true },
  reinstallSampleData: { success: 'Sample data has been updated for this machine', error: 'Error occurred updating sample data for machine' },
  proceed: { success: 'Operation has been approved', error: 'Error occurred approving operation' },
  cancel: { success: 'Operation has been cancelled', error: 'Error occurred cancelling operation' },
} as const satisfies Record<string, CallToasts>;

const errorOf = (toasts: CallToasts, error: unknown) => (toasts.serverMessage ? serverMessageOr(toasts.error, error) : withDetail(toasts.error, error));

/** A queueing call's toast: the specification's text, then a link to each queued operation's page (issue 24 point 1). */
function QueuedToast({ text, operations }: { text: string; operations: readonly TOperation[] }) {
  return (
    <span>
      <span>{text}</span>
      {operations.map((op) => (
        <a key={op.id} href={`#/operations/${op.id}`} style={{ marginInlineStart: 8 }}>
          {`${op.typeName} ${op.id}`}
        </a>
      ))}
    </span>
  );
}

/** `POST /machines/{id}/{path}` with `body`, answering the queued operations; each goes into the cache. */
function useQueueingCall<B>(path: string, toasts: CallToasts) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ machine, body }: { machine: MachineRef; body: B }) => api.post<TQueuedOperationsResponse>(`machines/${machine.id}/${path}`, body),
    onSuccess: ({ operations }) => {
      for (const op of operations) applyOperation(queryClient, op);
      toast.success(<QueuedToast text={toasts.success} operations={operations} />);
    },
    onError: (error) => toast.error(errorOf(toasts, error)),
  });
}

/** `POST /machines/{id}/queue-operations` `{operations}` (type names that can be manual for the class). */
export const useQueueOperations = () => useQueueingCall<{ operations: string[] }>('queue-operations', OPERATION_TOASTS.queue);
/** `POST /machines/{id}/force-backup` `{timeToBackup}` (minutes: 0, 3, 10, 30). */
export const useForceBackup = () => useQueueingCall<{ timeToBackup: number }>('force-backup', OPERATION_TOASTS.forceBackup);
/** `POST /machines/{id}/force-populate` `{populateLauncher, populateSiteMaster, altString}`. */
export const useForcePopulate = () => useQueueingCall<TForcePopulateRequest>('force-populate', OPERATION_TOASTS.forcePopulate);
/** `POST /machines/{id}/restore-backup` with the chosen backup file names. */
export const useRestoreBackup = () => useQueueingCall<TRestoreBackupRequest>('restore-backup', OPERATION_TOASTS.restoreBackup);
/** `POST /machines/{id}/publish-sample-data` `{fileName}`. */
export const usePublishSampleData = () => useQueueingCall<TPublishSampleDataRequest>('publish-sample-data', OPERATION_TOASTS.publishSampleData);
/** `POST /machines/{id}/create-ami` `{name, description, irmnVersion}`. */
export const useCreateAmi = () => useQueueingCall<TCreateAmiRequest>('create-ami', OPERATION_TOASTS.createAmi);
/** `POST /machines/{id}/test-latest-code` `{branch}`. */
export const useTestLatestCode = () => useQueueingCall<TTestLatestCodeRequest>('test-latest-code', OPERATION_TOASTS.testLatestCode);

/**
 * `POST /machines/{id}/reset-last-operation`: the latest unfinished operation
 * ends FAILURE (OPS-SEMANTICS). The machine and its Operation Logs are re-read
 * (spec 2 §4 "reset last operation reloads the operations"); a 409 shows the
 * server's message ('The machine has no queued, pending or running operation').
 */
export function useResetLastOperation() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const toasts = OPERATION_TOASTS.resetLastOperation;
  return useMutation({
    mutationFn: (machine: MachineRef) => api.post<unknown>(`machines/${machine.id}/reset-last-operation`),
    onSuccess: (answer, machine) => {
      if (isOperation(answer)) applyOperation(queryClient, answer);
      toast.success(toasts.success);
      void refreshMachine(queryClient, machine.id);
      return queryClient.invalidateQueries({ queryKey: operationKeys.machineLogs(machine.id) });
    },
    onError: (error) => toast.error(errorOf(toasts, error)),
  });
}

function isOperation(value: unknown): value is TOperation {
  return typeof value === 'object' && value !== null && 'id' in value && 'machineId' in value && 'typeName' in value;
}

/**
 * `PATCH /machines/{id}/operations/{operationId}` `{params: PROCEED | CANCEL}`
 * (spec 2 §4: approve or cancel a pending operation, after which machines reload).
 */
export function useDecideOperation() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ operation, decision }: { operation: Pick<TOperation, 'id' | 'machineId'>; decision: TOperationDecision }) =>
      api.patch<unknown>(`machines/${operation.machineId}/operations/${operation.id}`, { params: decision }),
    onSuccess: (answer, { operation, decision }) => {
      if (isOperation(answer)) applyOperation(queryClient, answer);
      toast.success(OPERATION_TOASTS[decision === 'PROCEED' ? 'proceed' : 'cancel'].success);
      return refreshMachine(queryClient, operation.machineId);
    },
    onError: (error, { decision }) => toast.error(withDetail(OPERATION_TOASTS[decision === 'PROCEED' ? 'proceed' : 'cancel'].error, error)),
  });
}

/**
 * Reinstall Sample Data: `PATCH /accounts/{id}/machines/{machineId}` with
 * `{sampleData, sampleDataFile}`; the server queues ReinstallSampleData. The
 * answer (the machine) replaces its row; its operations are then re-read.
 */
export function useReinstallSampleData() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const toasts = OPERATION_TOASTS.reinstallSampleData;
  return useMutation({
    mutationFn: ({ machine, body }: { machine: Pick<TMachine, 'id' | 'accountId'>; body: Pick<TUpdateMachineRequest, 'sampleData' | 'sampleDataFile'> }) =>
      api.patch<TMachine>(`accounts/${machine.accountId}/machines/${machine.id}`, body),
    onSuccess: (machine) => {
      applyMachine(queryClient, machine);
      toast.success(toasts.success);
      void refreshMachine(queryClient, machine.id);
    },
    onError: (error) => toast.error(withDetail(toasts.error, error)),
  });
}
