// A /v1 answer as page state: { answer, error, loading }, asked again when the path or a parameter changes. An
// answer that arrives after a newer request started is dropped, so a quick toggle never shows stale figures.
import { useEffect, useState } from 'preact/hooks';
import { getJson, queryOf } from './api.js';

export function useAnswer(path, params) {
  const wanted = path === null ? null : `${path}${queryOf(params)}`;
  const [state, setState] = useState({ answer: null, error: null, loading: wanted !== null, of: null });
  useEffect(() => {
    if (wanted === null) return;
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    getJson(path, params).then(
      (answer) => current && setState({ answer, error: null, loading: false, of: wanted }),
      (error) => current && setState({ answer: null, error, loading: false, of: wanted }),
    );
    return () => {
      current = false;
    };
  }, [wanted]);
  return state;
}
