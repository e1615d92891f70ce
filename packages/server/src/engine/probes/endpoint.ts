/**
 * The probed endpoint (DESIGN §14): what answers a probe of a machine's
 * launcher or site master URL. The engine hands it a batch of targets and gets
 * one result each; a real endpoint (HTTP requests with a timeout) could take the
 * simulated one's place behind {@link ProbeEndpoint}.
 *
 * The simulated endpoint answers from the machine's facts, without a network:
 * - it fails (latency null) when the machine's instance is not running, when
 *   the machine needs admin (Panic: `failCounter` reached `PANIC_FAILURES`), or
 *   when a fault names the machine (`SIM_PROBE_FAIL_MACHINES`, or `failMachine`
 *   in a test);
 * - otherwise it answers after a latency drawn from the instance type and the
 *   load ({@link simulatedLatencyMs}); past {@link PROBE_TIMEOUT_MS} that is a
 *   failure too (timed out).
 */
import type { TProbeKind } from '@fleet/contracts';

/** A probe gives up after this long, ms: a slower answer is a failure. */
export const PROBE_TIMEOUT_MS = 10_000;

/** One URL to probe and the facts of its machine at the time of the tick. */
export interface ProbeTarget {
  machineId: number;
  machineName: string;
  kind: TProbeKind;
  url: string;
  /** The active cloud instance's status, settled to the tick's time (running, stopped, stopping, …). */
  instanceStatus: string;
  needsAdmin: boolean;
  /** The machine runs an operation (the deployer is busy on it). */
  busy: boolean;
  /** The instance type's cloud credit cost (a bigger type costs more); null when unknown. */
  creditCost: number | null;
}

export interface ProbeResult {
  ok: boolean;
  /** Milliseconds until the answer; null when the probe failed. */
  latencyMs: number | null;
  /** Why it failed, the phrase that ends the sentence ("no answer within 10000 ms"); absent on success. */
  reason?: string;
}

export interface ProbeEndpoint {
  readonly name: string;
  /** Probes every target at `at`; answers one result per target, in order. */
  probe(targets: readonly ProbeTarget[], at: Date): Promise<ProbeResult[]>;
}

/**
 * The load of a machine at `at`, 0..1: 0.9 while it runs an operation, else a
 * daily curve between 0.2 (03:00 UTC) and 0.5 (15:00 UTC), the working day.
 */
export function simulatedLoad(busy: boolean, at: Date): number {
  if (busy) return 0.9;
  const hour = at.getUTCHours() + at.getUTCMinutes() / 60;
  return 0.35 - 0.15 * Math.cos((2 * Math.PI * (hour - 3)) / 24);
}

/**
 * A simulated latency, ms: a base that falls with the instance type's size
 * (20 + 160 / (1 + creditCost): t2.small about 150 ms, m5.2xlarge about 50 ms),
 * 1.5 times that for a site master (it serves the application, the launcher a
 * page), times (1 + 2 × load), times a log-normal jitter (σ 0.25) from
 * `gaussian`, a standard normal draw.
 */
export function simulatedLatencyMs(o: { creditCost: number | null; kind: TProbeKind; load: number; gaussian: number }): number {
  const base = 20 + 160 / (1 + (o.creditCost ?? 1));
  const kindFactor = o.kind === 'siteMaster' ? 1.5 : 1;
  return base * kindFactor * (1 + 2 * o.load) * Math.exp(0.25 * o.gaussian);
}

/** A standard normal draw from two uniform ones (Box–Muller). */
function gaussian(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export interface SimulatedEndpoint extends ProbeEndpoint {
  /** Makes every probe of the named machine fail (true) or answer again (false). */
  failMachine(machineName: string, failing: boolean): void;
}

/** The simulated endpoint; `failMachines` fail from the start (`SIM_PROBE_FAIL_MACHINES`), `random` is replaceable in tests. */
export function createSimulatedEndpoint(o: { failMachines?: readonly string[]; random?: () => number } = {}): SimulatedEndpoint {
  const failing = new Set(o.failMachines ?? []);
  const random = o.random ?? Math.random;
  const answer = (t: ProbeTarget, at: Date): ProbeResult => {
    if (t.instanceStatus !== 'running') return { ok: false, latencyMs: null, reason: `no answer, the instance is ${t.instanceStatus}` };
    if (t.needsAdmin) return { ok: false, latencyMs: null, reason: 'no answer, the machine needs admin (Panic)' };
    if (failing.has(t.machineName)) return { ok: false, latencyMs: null, reason: 'no answer (simulated fault)' };
    const latencyMs = simulatedLatencyMs({ creditCost: t.creditCost, kind: t.kind, load: simulatedLoad(t.busy, at), gaussian: gaussian(random) });
    if (latencyMs > PROBE_TIMEOUT_MS) return { ok: false, latencyMs: null, reason: `no answer within ${PROBE_TIMEOUT_MS} ms` };
    return { ok: true, latencyMs: Math.round(latencyMs * 10) / 10 };
  };
  return {
    name: 'simulated',
    probe: async (targets, at) => targets.map((t) => answer(t, at)),
    failMachine(machineName, on) {
      if (on) failing.add(machineName);
      else failing.delete(machineName);
    },
  };
}
