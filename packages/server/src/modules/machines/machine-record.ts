/**
 * The fields of a machine's record that only `GET /machines/{id}` answers
 * (spec 2 §3 Machine: cloudInstances "with timestamp", grafanaUrl), beside its
 * backup files (ZMachineDetail).
 *
 * Why not in the lists: a page of `GET /machines` holds up to 100 machines and
 * is budgeted by a benchmark (bench/machines-list.ts, p95); the instance
 * history would be a second walk of `cloud_instances` per machine and the
 * Grafana link a join to `account_settings`, for fields the machines panel does
 * not show. The lists keep the active instance (`instance`).
 */
import { MACHINE_DETAIL_CLOUD_INSTANCES, type TMachineCloudInstance } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { selectMachineCloudInstances } from '../cloud-instances/cloud-instances.repository.js';
import { selectGrafanaFacts } from './machines.repository.js';

/** The Grafana dashboard of every machine (its uid and slug in the provider's Grafana). */
export const GRAFANA_MACHINE_DASHBOARD = 'd/fleet-machine/fleet-machine';

/**
 * The machine's dashboard in Grafana at `base` (`GRAFANA_URL`, no trailing
 * slash), its variables `account` (the account's URL name) and `machine` (the
 * machine's name): `{base}/d/fleet-machine/fleet-machine?var-account=…&var-machine=…`.
 * Null when there is no Grafana (`base` null) or the account does not show its
 * machines in Grafana (machineConfig.showInGrafana false, spec 1 §2 Instance Settings).
 */
export function machineGrafanaUrl(
  base: string | null,
  facts: { machineName: string; accountUrlName: string; showInGrafana: boolean },
): string | null {
  if (base === null || !facts.showInGrafana) return null;
  const query = new URLSearchParams({ 'var-account': facts.accountUrlName, 'var-machine': facts.machineName });
  return `${base}/${GRAFANA_MACHINE_DASHBOARD}?${query.toString()}`;
}

/**
 * The machine's `grafanaUrl` and its latest {@link MACHINE_DETAIL_CLOUD_INSTANCES}
 * cloud instances, newest first. The caller has checked that the user may see
 * the machine (an unknown one answers no link and no instances).
 */
export async function selectMachineRecordFields(
  db: DbOrTx,
  o: { machineId: number; grafanaUrl: string | null },
): Promise<{ grafanaUrl: string | null; cloudInstances: TMachineCloudInstance[] }> {
  const [facts, cloudInstances] = await Promise.all([
    selectGrafanaFacts(db, o.machineId),
    selectMachineCloudInstances(db, o.machineId, MACHINE_DETAIL_CLOUD_INSTANCES),
  ]);
  return { grafanaUrl: facts ? machineGrafanaUrl(o.grafanaUrl, facts) : null, cloudInstances };
}
