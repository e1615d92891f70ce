/**
 * The search box and region filter of the image lists (spec 3 §2.3, §2.4), kept
 * in the URL (`search`, `region`; DESIGN §10). The box's text is debounced
 * 500 ms (spec 3 §9) before it reaches the URL and the query.
 */
import { useEffect, useState } from 'react';
import { useSearchParams } from '../../lib/use-search-params';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { writeParam } from '../../lib/url-params';

export function useListFilters() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(() => params.get('search') ?? '');
  const search = useDebouncedValue(text.trim());
  const region = params.get('region') ?? undefined;

  useEffect(() => {
    setParams(
      (prev) => {
        if ((prev.get('search') ?? '') === search) return prev;
        const next = new URLSearchParams(prev);
        writeParam(next, 'search', search || undefined);
        return next;
      },
      { replace: true },
    );
  }, [search, setParams]);

  const setRegion = (value: string | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        writeParam(next, 'region', value || undefined);
        return next;
      },
      { replace: true },
    );

  return { text, setText, search: search || undefined, region, setRegion };
}
