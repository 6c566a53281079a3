import { useEffect, useRef } from "react";

/**
 * Calls `onResult` once per answer of a fetcher's submission, when the fetcher is idle again (the page's data has
 * been revalidated by then, so the lists already show the change).
 */
export function useFetcherResult<T>(
  fetcher: { state: string; data: T | undefined },
  onResult: (result: T) => void,
) {
  const handled = useRef<T | undefined>(fetcher.data);
  const { state, data } = fetcher;
  useEffect(() => {
    if (state !== "idle" || data === undefined || data === handled.current) return;
    handled.current = data;
    onResult(data);
  }, [state, data, onResult]);
}
