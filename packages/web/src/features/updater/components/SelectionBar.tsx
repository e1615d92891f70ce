/**
 * The Updater's selection bar (spec 3 §2.8; issue 13), above the targets of
 * either mode: the count of selected targets, 'Select all N that match' (`GET
 * /updater/machines/ids` or `/updater/accounts/ids`, at most 10,000 ids; says
 * so when capped), and Clear selection. When the list's total is a lower bound
 * (`totalCapped`: the machines panel over the whole fleet) the button names no
 * number; the count selected then says how many matched.
 */
import { useState } from 'react';
import { Button, Flex, Typography } from 'antd';
import { MAX_UPDATE_TARGETS } from '@fleet/contracts';
import { useToast } from '../../../app/toast';
import { showProblem } from '../api/mutations';
import { fetchTargetIds } from '../api/queries';
import type { TargetSelection } from '../use-target-selection';
import type { UpdaterMode, UpdaterTargetQuery } from '../use-updater-params';

interface Props {
  mode: UpdaterMode;
  query: UpdaterTargetQuery;
  selection: TargetSelection;
  /** The number of targets the list shows for the filter. */
  total: number;
  /** `total` is a lower bound. */
  totalCapped?: boolean;
}

export function SelectionBar({ mode, query, selection, total, totalCapped = false }: Props) {
  const toast = useToast();
  const [selectingAll, setSelectingAll] = useState(false);
  const label = mode === 'machine' ? 'machines' : 'accounts';

  const selectAll = async () => {
    setSelectingAll(true);
    try {
      const answer = await fetchTargetIds(mode, query);
      selection.set(answer.ids, answer.totalItems > answer.ids.length ? answer.totalItems : null);
    } catch (error) {
      showProblem(toast, `Error occurred selecting ${label}`, error);
    } finally {
      setSelectingAll(false);
    }
  };

  return (
    <Flex gap={12} align="center" wrap style={{ marginBottom: 8 }} role="status" aria-live="polite">
      <Typography.Text strong data-testid="selected-count">
        {selection.ids.length.toLocaleString('en-US')} {label} selected
      </Typography.Text>
      {total > 0 && (
        <Button size="small" loading={selectingAll} onClick={() => void selectAll()}>
          {totalCapped ? 'Select all that match' : `Select all ${total.toLocaleString('en-US')} that match`}
        </Button>
      )}
      {selection.ids.length > 0 && (
        <Button size="small" onClick={selection.clear}>
          Clear selection
        </Button>
      )}
      {selection.cappedFrom !== null && (
        <Typography.Text type="warning">
          {selection.cappedFrom.toLocaleString('en-US')} match; only the first {MAX_UPDATE_TARGETS.toLocaleString('en-US')} are selected (the most one update may name).
        </Typography.Text>
      )}
    </Flex>
  );
}
