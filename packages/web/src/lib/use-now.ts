/**
 * The current time (ms since the epoch), read again every `everyMs` while the
 * component is mounted: for text that counts down or up ("2 min left") without
 * reading the clock during render (React's purity rule).
 */
import { useEffect, useState } from 'react';

export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
