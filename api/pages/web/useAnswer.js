// Loaded data as page state: { answer, error, loading, of }, loaded again when its key changes. What arrives
// after a newer load started is dropped, so a quick toggle never shows stale figures.
import { useEffect, useState } from 'preact/hooks';
import { getJson, queryOf } from './api.js';

/** `load()`'s result under `key` (null: nothing to load yet). */
export function useLoaded(key, load) {
  const [state, setState] = useState({ answer: null, error: null, loading: key !== null, of: null });
  useEffect(() => {
    if (key === null) return;
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (answer) => current && setState({ answer, error: null, loading: false, of: key }),
      (error) => current && setState({ answer: null, error, loading: false, of: key }),
    );
    return () => {
      current = false;
    };
  }, [key]);
  return state;
}

/** A /v1 answer, asked again when the path or a parameter changes (path null: not yet). */
export function useAnswer(path, params) {
  const wanted = path === null ? null : `${path}${queryOf(params)}`;
  return useLoaded(wanted, () => getJson(path, params));
}
