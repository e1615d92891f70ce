/**
 * One handler per task type (DESIGN §6, spec 2 §4). The record is keyed by every
 * task type, so a type without a handler does not compile.
 *
 * Every handler is idempotent and reads the instance's actual state before it
 * acts, so a retried task (its first worker died) never repeats a cloud call
 * that already took effect: starting a running machine completes at once, a
 * launch carries the task's client token (`task-<id>`) so a second launch
 * answers the first instance (a resumed create that finds it issues the
 * machine's credential unless the first attempt did), and facts a retry could
 * no longer see (which instance a recreate replaces, whether a resized machine
 * was running) are checkpointed in the task's params before the call that
 * would hide them.
 *
 * Machine flags (stop, idle, terminate) are set by the API when the task is
 * queued (the operator's intent); handlers change them only to tell the truth
 * after the fact: a failed start or stop puts `stop` back in line with the
 * instance, a finished recreate clears `terminate`, a finished terminate
 * deletes the machine.
 */
import type { TInstanceState, TTaskType } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import type { CloudInstance, CloudProvider } from '../cloud/provider.js';
import { hasCredential, markMachineTerminated, updateMachine, type MachineContext } from './machine-state.repository.js';

/** A failure to report on the task as its error (the message is shown to operators). */
export class TaskFailure extends Error {}

/** What a handler can do; built by the engine for one attempt of one task. */
export interface TaskContext {
  task: { id: number; type: TTaskType; params: Record<string, unknown> };
  machine: MachineContext;
  cloud: CloudProvider;
  db: Db;
  /** Reports progress, 0–100 (only forward). */
  progress(value: number): Promise<void>;
  /** Persists facts in the task's params (also visible in `task.params`) before a call that would hide them. */
  checkpoint(patch: Record<string, unknown>): Promise<void>;
  /** The machine's active instance as the cloud describes it now, if it has one. */
  activeInstance(): Promise<CloudInstance | undefined>;
  /** Describes the instance until it is in `state`; fails if it settles elsewhere or takes too long. */
  waitFor(cloudId: string, state: TInstanceState): Promise<CloudInstance>;
  /** Issues the machine a new credential (RDP password, SSH key), stored sealed. */
  issueCredential(): Promise<void>;
}

export interface TaskHandler {
  run(ctx: TaskContext): Promise<void>;
  /** After a failure: bring the machine's fields in line with what the cloud says. */
  onFailure?(ctx: TaskContext): Promise<void>;
}

const clientToken = (ctx: TaskContext) => `task-${ctx.task.id}`;

async function requireInstance(ctx: TaskContext): Promise<CloudInstance> {
  const instance = await ctx.activeInstance();
  if (!instance) throw new TaskFailure(`Machine ${ctx.machine.name} has no cloud instance`);
  return instance;
}

/** Brings the instance to running from wherever it is; fails once it is shutting down or gone. */
async function ensureRunning(ctx: TaskContext, instance: CloudInstance): Promise<CloudInstance> {
  let i = instance;
  for (;;) {
    switch (i.status) {
      case 'running':
        return i;
      case 'pending':
        return ctx.waitFor(i.cloudId, 'running');
      case 'stopping':
        i = await ctx.waitFor(i.cloudId, 'stopped');
        break;
      case 'stopped':
        await ctx.progress(20);
        i = await ctx.cloud.start(i.cloudId);
        await ctx.progress(40);
        break;
      default:
        throw new TaskFailure(`Instance ${i.cloudId} is ${i.status}`);
    }
  }
}

/** Brings the instance to stopped from wherever it is; fails once it is shutting down or gone. */
async function ensureStopped(ctx: TaskContext, instance: CloudInstance): Promise<CloudInstance> {
  let i = instance;
  for (;;) {
    switch (i.status) {
      case 'stopped':
        return i;
      case 'stopping':
        return ctx.waitFor(i.cloudId, 'stopped');
      case 'pending':
        i = await ctx.waitFor(i.cloudId, 'running');
        break;
      case 'running':
        await ctx.progress(20);
        i = await ctx.cloud.stop(i.cloudId);
        await ctx.progress(40);
        break;
      default:
        throw new TaskFailure(`Instance ${i.cloudId} is ${i.status}`);
    }
  }
}

/** Terminates the instance unless it is already gone; waits until it is. */
async function ensureTerminated(ctx: TaskContext, cloudId: string): Promise<void> {
  const i = await ctx.cloud.describe(cloudId);
  if (!i || i.status === 'terminated') return;
  if (i.status !== 'shutting-down') await ctx.cloud.terminate(cloudId);
  await ctx.progress(30);
  await ctx.waitFor(cloudId, 'terminated');
}

/** Launches the machine's instance under the task's client token, waits until it runs, issues its credential. */
async function launch(ctx: TaskContext): Promise<void> {
  const { machine } = ctx;
  const i = await ctx.cloud.launch({
    machineId: machine.id,
    region: machine.region,
    instanceTypeId: machine.instanceTypeId,
    clientToken: clientToken(ctx),
  });
  await ctx.progress(60);
  await ensureRunning(ctx, i);
  await ctx.issueCredential();
}

/** A failed start or stop leaves `stop` saying what the instance is. */
async function syncStopFlag(ctx: TaskContext): Promise<void> {
  const i = await ctx.activeInstance().catch(() => undefined);
  if (!i) return;
  if (i.status === 'stopped' || i.status === 'stopping') await updateMachine(ctx.db, ctx.machine.id, { stop: true });
  if (i.status === 'running' || i.status === 'pending') await updateMachine(ctx.db, ctx.machine.id, { stop: false });
}

function requireLive(ctx: TaskContext) {
  if (ctx.machine.deleted) throw new TaskFailure(`Machine ${ctx.machine.name} has been terminated`);
}

export const HANDLERS: Record<TTaskType, TaskHandler> = {
  CreateMachine: {
    async run(ctx) {
      requireLive(ctx);
      const existing = await ctx.activeInstance();
      if (!existing) return launch(ctx);
      // A resumed create finds the instance its first attempt launched; that
      // attempt may have died before issuing the credential.
      await ensureRunning(ctx, existing);
      if (!(await hasCredential(ctx.db, ctx.machine.id))) await ctx.issueCredential();
    },
  },

  StartMachine: {
    async run(ctx) {
      requireLive(ctx);
      await ensureRunning(ctx, await requireInstance(ctx));
    },
    onFailure: syncStopFlag,
  },

  StopMachine: {
    async run(ctx) {
      requireLive(ctx);
      await ensureStopped(ctx, await requireInstance(ctx));
    },
    onFailure: syncStopFlag,
  },

  TerminateMachine: {
    async run(ctx) {
      const active = await ctx.activeInstance();
      if (active) await ensureTerminated(ctx, active.cloudId);
      await markMachineTerminated(ctx.db, ctx.machine.id);
    },
  },

  RecreateMachine: {
    async run(ctx) {
      requireLive(ctx);
      // Which instance is replaced must survive a retry: once the new one is
      // launched, it is the active one.
      if (!('replacedCloudId' in ctx.task.params)) {
        const old = await ctx.activeInstance();
        await ctx.checkpoint({ replacedCloudId: old?.cloudId ?? null });
      }
      const replaced = ctx.task.params.replacedCloudId;
      if (typeof replaced === 'string') await ensureTerminated(ctx, replaced);
      await ctx.progress(50);
      await launch(ctx);
      await updateMachine(ctx.db, ctx.machine.id, { terminate: false, stop: false, idle: false });
    },
  },

  ChangeInstanceType: {
    async run(ctx) {
      requireLive(ctx);
      const target = Number(ctx.task.params.instanceTypeId);
      if (!Number.isInteger(target)) throw new TaskFailure('The task names no instance type');
      let i = await requireInstance(ctx);
      // Whether to start it again must survive a retry that finds it stopped.
      if (!('wasRunning' in ctx.task.params)) await ctx.checkpoint({ wasRunning: i.status === 'running' || i.status === 'pending' });
      if (i.instanceTypeId !== target) {
        i = await ensureStopped(ctx, i);
        await ctx.progress(50);
        i = await ctx.cloud.changeInstanceType(i.cloudId, target);
        await ctx.progress(60);
      }
      await updateMachine(ctx.db, ctx.machine.id, { instanceTypeId: target });
      if (ctx.task.params.wasRunning === true) await ensureRunning(ctx, i);
    },
  },
};
