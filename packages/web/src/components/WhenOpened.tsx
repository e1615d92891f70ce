/**
 * A dialog of a lazily loaded module (`React.lazy`), mounted at its first
 * opening and kept mounted after it, so antd closes and opens it again as it
 * would an eager one (its state kept between openings). Until then the screen
 * carries none of its code (issue 26, script per route); at the first opening
 * it shows once the module has loaded (Suspense, nothing in the meantime).
 *
 * `open` is the dialog's own `open`; `children` the dialog element.
 */
import { Suspense, useState, type ReactNode } from 'react';

export function WhenOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
