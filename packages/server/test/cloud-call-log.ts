/**
 * The cloud calls of a server under test, as `restart.test.ts` counts them: a
 * trigger on `cloud_instances` in the server's database records each call's
 * transition (a launch inserts a row; start, stop and terminate move an
 * instance to `pending`, `stopping`, `shutting-down`) in {@link CLOUD_CALLS},
 * with the machine, the client token, the old and new status and the time.
 */

/** The table the calls are recorded in. */
export const CLOUD_CALLS = 'restart_test_cloud_calls';

/** Creates the table, its function and the trigger (again: replaced); `query` runs one statement on the server's database. */
export async function installCloudCallLog(query: (text: string) => Promise<unknown>): Promise<void> {
  await query(`
    create table if not exists ${CLOUD_CALLS} (
      id bigserial primary key, machine_id int, cloud_id text, client_token text, old_status text, new_status text,
      at timestamptz not null default clock_timestamp())`);
  await query(`
    create or replace function restart_test_log_call() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.status in ('pending', 'stopping', 'shutting-down') and old.status is distinct from new.status then
        insert into ${CLOUD_CALLS} (machine_id, cloud_id, client_token, old_status, new_status)
        values (new.machine_id, new.cloud_id, new.client_token, case when tg_op = 'UPDATE' then old.status end, new.status);
      end if;
      return new;
    end $$`);
  await query(`drop trigger if exists ${CLOUD_CALLS} on cloud_instances`);
  await query(`create trigger ${CLOUD_CALLS} after insert or update on cloud_instances for each row execute function restart_test_log_call()`);
}
