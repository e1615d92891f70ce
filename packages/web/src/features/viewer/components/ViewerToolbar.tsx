/**
 * The top of every viewer (spec 2 §2.5–2.10): the machine selector, the
 * viewer's own controls, Refresh, and the load error in an alert (spec 2 §8
 * "Viewer list errors show the store's error string in an alert").
 */
import type { ReactNode } from 'react';
import { Alert, Button, Flex, type TablePaginationConfig } from 'antd';
import { VIEWER_PAGE_SIZES } from '@fleet/contracts';
import { ReloadOutlined } from '@ant-design/icons';
import { errorText } from '../../../app/api-client';
import { MachineSelector } from './MachineSelector';

export interface ViewerToolbarProps {
  /** Id of the machine select element. */
  selectorId: string;
  machineId: number | undefined;
  onMachine(machineId: number | undefined): void;
  /** The list's query: its fetching state drives Refresh, its error the alert. */
  list: { isFetching: boolean; isError: boolean; error: unknown; refetch(): unknown };
  /** What the alert says when the error carries no text. */
  errorFallback: string;
  children?: ReactNode;
}

export function ViewerToolbar({ selectorId, machineId, onMachine, list, errorFallback, children }: ViewerToolbarProps) {
  return (
    <>
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <MachineSelector id={selectorId} value={machineId} onChange={onMachine} />
        {children}
        <Button icon={<ReloadOutlined aria-hidden />} loading={list.isFetching} onClick={() => void list.refetch()}>
          Refresh
        </Button>
      </Flex>
      {list.isError && <Alert type="error" showIcon title={errorText(list.error, errorFallback)} style={{ marginBottom: 12 }} />}
    </>
  );
}

/** The pagination's total text: a capped total is a lower bound ("at least"). */
export function pageTotalText(noun: string, capped: boolean | undefined) {
  return (n: number, [from, to]: [number, number]) => `${from}-${to} of ${capped ? 'at least ' : ''}${n} ${noun}`;
}

/**
 * The pagination of a viewer's table (issue 24 point 7): the page and its size
 * from the URL, the size changer (VIEWER_PAGE_SIZES: 20, 50, 100), the total
 * ("at least" when capped: it stays while paging through the counted block).
 */
export function viewerPagination(o: {
  page: number;
  pageSize: number;
  list: { isError: boolean; data?: { totalItems: number; totalCapped?: boolean } };
  noun: string;
  onChange(page: number, size: number): void;
}): TablePaginationConfig {
  return {
    current: o.page,
    pageSize: o.pageSize,
    total: o.list.isError ? 0 : (o.list.data?.totalItems ?? 0),
    showSizeChanger: true,
    pageSizeOptions: VIEWER_PAGE_SIZES.map(String),
    showTotal: pageTotalText(o.noun, o.list.data?.totalCapped),
    onChange: o.onChange,
  };
}
