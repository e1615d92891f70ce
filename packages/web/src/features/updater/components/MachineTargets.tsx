/**
 * The Updater's targets in machine mode (spec 3 §2.8; spec 2 §2.1: the machine
 * panel and table are embedded in the updater): the machines panel of the
 * account page (`MachinesPanel`, spec 2 §2.2–§2.4: status with Panic and
 * pending, tasks, switches, row menu, Refresh, Notification, Poll update),
 * listing the machines of every account that match the Updater's class filter
 * and search (`GET /machines?classIds&search`, 100 a page, with the Account
 * column), its checkboxes being the Updater's selection (kept across pages and
 * filters). The `SelectionBar` is above it; the rows shown are remembered so
 * the dialogs and the versions block can name their machines and classes.
 */
import { useCallback, useState } from 'react';
import { MachinesPanel, type MachineSelection, type MachinesPanelPage } from '../../machines/MachinesPanel';
import type { TargetSelection } from '../use-target-selection';
import { MACHINE_PAGE_SIZE } from '@fleet/contracts';
import type { UpdaterTargetQuery } from '../use-updater-params';
import { SelectionBar } from './SelectionBar';

/** Height past which the panel's table scrolls under its header, pixels (100 rows a page; the flags and versions stay near). */
export const MACHINE_TARGETS_SCROLL_Y = 560;

interface Props {
  query: UpdaterTargetQuery;
  selection: TargetSelection;
}

export function MachineTargets({ query, selection }: Props) {
  const [total, setTotal] = useState({ totalItems: 0, totalCapped: false });
  const { remember, seen } = selection;
  const onPage = useCallback(
    (page: MachinesPanelPage) => {
      remember(page.items);
      setTotal({ totalItems: page.totalItems, totalCapped: page.totalCapped });
    },
    [remember],
  );
  const panelSelection: MachineSelection = {
    ids: selection.ids,
    onChange: (ids) => selection.set(ids),
    nameOf: (id) => seen.get(id)?.name,
  };

  return (
    <>
      <SelectionBar mode="machine" query={query} selection={selection} total={total.totalItems} totalCapped={total.totalCapped} />
      <MachinesPanel
        showAccount
        filter={{ classIds: query.classIds, search: query.search }}
        selection={panelSelection}
        onPage={onPage}
        emptyText="No machines match the filters"
        scrollY={MACHINE_TARGETS_SCROLL_Y}
        // A full page while it loads: the cards below keep their place (issue 26).
        expectedRows={MACHINE_PAGE_SIZE}
      />
    </>
  );
}
