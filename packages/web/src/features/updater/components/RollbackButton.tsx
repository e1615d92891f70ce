/**
 * Roll back on the rollout page (issue 25 point 3): for a Halted, Aborted or
 * Completed rollout not rolled back yet. It asks the server for the dry run
 * first and shows it (per target the versions it puts back, refused targets
 * with the rule) with the waves and approvals the rollback will follow; Start
 * rollback starts it and opens the new rollout's page.
 */
import { useState } from 'react';
import { Button, Typography } from 'antd';
import { useNavigate } from 'react-router';
import type { TBatchResult, TRollout } from '@fleet/contracts';
import { useRollback } from '../api/mutations';
import { PreviewModal } from './PreviewModal';
import { APPROVAL_LABELS } from '../updater-payload';

/** Whether the rollout can be rolled back now: it no longer moves, and it was not rolled back yet. */
export function canRollBack(r: TRollout): boolean {
  return (r.status === 'Halted' || r.status === 'Aborted' || r.status === 'Completed') && r.rolledBackBy === null;
}

export function RollbackButton({ rollout }: { rollout: TRollout }) {
  const navigate = useNavigate();
  const preview = useRollback();
  const start = useRollback();
  const [result, setResult] = useState<TBatchResult | undefined>(undefined);
  if (!canRollBack(rollout)) return null;
  return (
    <>
      <Button
        loading={preview.isPending}
        onClick={() => preview.mutate({ id: rollout.id, dryRun: true }, { onSuccess: setResult })}
      >
        Roll back
      </Button>
      <PreviewModal
        title={`Roll back rollout ${rollout.id}`}
        result={result}
        okText="Start rollback"
        applying={start.isPending}
        onCancel={() => setResult(undefined)}
        onApply={() =>
          start.mutate(
            { id: rollout.id, dryRun: false },
            {
              onSuccess: (started) => {
                setResult(undefined);
                if (started.rolloutId !== null) void navigate(`/rollouts/${started.rolloutId}`);
              },
            },
          )
        }
      >
        <Typography.Paragraph style={{ marginTop: 12 }}>
          A new rollout puts these versions back on the {result?.targets.length ?? 0} target(s) this rollout changed, in the same waves
          {rollout.plan.approval && rollout.plan.approval !== 'none' ? `, approved as before (${APPROVAL_LABELS[rollout.plan.approval].toLowerCase()})` : ''}, without a bake.
        </Typography.Paragraph>
      </PreviewModal>
    </>
  );
}
