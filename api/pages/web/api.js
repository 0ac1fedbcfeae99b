// The pages' one way to data: the server's own /v1 answers, asked with the key kept in this browser's
// localStorage under `tally.apiKey` (never in a URL). A refused key is announced to the whole page, which then
// asks for another.
export const KEY_STORAGE = 'tally.apiKey';
export const KEY_PATTERN = /^svc_[0-9a-f]{48}$/;
export const KEY_REFUSED = 'tally:key-refused';

export const storedKey = () => localStorage.getItem(KEY_STORAGE);

export function saveKey(key) {
  localStorage.setItem(KEY_STORAGE, key);
}

/** An answer other than 200: its status and the API's own error text. */
export class ApiError extends Error {
  constructor(status, text) {
    super(text);
    this.status = status;
  }
}

/** The query string of the defined entries of `params`. */
export function queryOf(params = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * A key may have 4 requests in flight (spec 8; more get 429), so a page asks at most that many at once and queues
 * the rest; a 429 that still comes (another tab with the same key) is retried after its Retry-After.
 */
const MAX_IN_FLIGHT = 4;
const MAX_RETRIES = 3;
let inFlight = 0;
const waiting = [];

async function slot() {
  if (inFlight < MAX_IN_FLIGHT) inFlight++;
  else await new Promise((resolve) => waiting.push(resolve));
}

function release() {
  const next = waiting.shift();
  if (next) next();
  else inFlight--;
}

async function fetchAnswer(url) {
  await slot();
  try {
    return await fetch(url, { headers: { authorization: `Bearer ${storedKey() ?? ''}` } });
  } finally {
    release();
  }
}

/** GET /v1`path` with the stored key: the parsed answer, or an ApiError naming what the API said. */
export async function getJson(path, params) {
  const url = `/v1${path}${queryOf(params)}`;
  let response = await fetchAnswer(url);
  for (let retry = 0; response.status === 429 && retry < MAX_RETRIES; retry++) {
    const seconds = Number(response.headers.get('retry-after')) || 1;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    response = await fetchAnswer(url);
  }
  const body = await response.json().catch(() => null);
  if (response.ok) return body;
  if (response.status === 401) window.dispatchEvent(new Event(KEY_REFUSED));
  throw new ApiError(response.status, body?.error ?? response.statusText);
}
