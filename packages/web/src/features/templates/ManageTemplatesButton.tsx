/**
 * The Manage Templates button of the Edit account and Create account footers
 * (spec 1 §2 "Footer: … Manage Templates"; §6: the templates button needs
 * permission write, which the page checks) with the dialog it opens.
 */
import { useState } from 'react';
import { Button } from 'antd';
import { SnippetsOutlined } from '@ant-design/icons';
import { WhenOpened } from '../../components/WhenOpened';
import type { ManageTemplatesDialogProps } from './ManageTemplatesDialog';
import { lazyNamed } from '../../lib/lazy-named';

/** The dialog, loaded at its first opening (`WhenOpened`). */
const ManageTemplatesDialog = lazyNamed(() => import('./ManageTemplatesDialog'), 'ManageTemplatesDialog');

export function ManageTemplatesButton(props: Omit<ManageTemplatesDialogProps, 'open' | 'onClose'>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<SnippetsOutlined aria-hidden />} onClick={() => setOpen(true)}>
        Manage Templates
      </Button>
      <WhenOpened open={open}>
        <ManageTemplatesDialog {...props} open={open} onClose={() => setOpen(false)} />
      </WhenOpened>
    </>
  );
}
