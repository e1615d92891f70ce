-- The machine a claimed task is for (engine/tasks/machine-state.repository.ts MachineContext) as one jsonb
-- object, read in the claim's own statement (tasks.repository.ts claimNext: one round trip, not two).
-- plpgsql and VOLATILE: its query takes a snapshot of its own when it runs, after claim_machine_task took the
-- machine's lock in the same statement, so it sees every finish committed before the claim (a ChangeInstanceType
-- or a replaced instance of the task before), as the separate read did.
-- instanceTypeId: the machine's, else its account's licensed one (a number in licenseConfig.cloudInstanceType),
-- else default_instance_type. region: the account's machine config, else the machine's last instance's, else
-- default_region. activeCloudId: the machine's newest active instance, else null.
CREATE FUNCTION machine_task_context(machine integer, default_instance_type integer, default_region text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN (
    SELECT jsonb_build_object(
      'id', m.id,
      'name', m.name,
      'accountId', m.account_id,
      'classId', m.class_id,
      'accountClassId', a.class_id,
      'instanceTypeId', coalesce(m.instance_type_id,
        CASE WHEN s.license_config->>'cloudInstanceType' ~ '^[0-9]{1,9}$' THEN (s.license_config->>'cloudInstanceType')::int END,
        default_instance_type),
      'region', coalesce(s.machine_config->>'region',
        (SELECT c.region FROM cloud_instances c WHERE c.machine_id = m.id ORDER BY c.id DESC LIMIT 1), default_region),
      'deleted', m.deleted_at IS NOT NULL,
      'activeCloudId', (SELECT c.cloud_id FROM cloud_instances c WHERE c.machine_id = m.id AND c.active ORDER BY c.id DESC LIMIT 1))
    FROM machines m
    JOIN accounts a ON a.id = m.account_id
    LEFT JOIN account_settings s ON s.account_id = m.account_id
    WHERE m.id = machine);
END
$$;
