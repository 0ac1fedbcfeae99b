// The JSON-RPC source's errors, split the way the caller must react (docs/style.md 9):
// - RpcRangeError: the node refuses or chokes on an eth_getLogs range (too many results, response too large,
//   range too wide, timed out); a smaller range fixes it.
// - RpcRetryableError: the node or the network is briefly unwell (connection refused or reset, HTTP 429 and 5xx,
//   timeouts, rate limits, a node behind its peers); the same request later succeeds.
// - RpcFatalError: retrying cannot help (bad request, invalid params, unknown method, unauthorised, wrong chain,
//   a malformed answer, a URL fetch refuses, or retries used up: RpcRetriesSpentError); ingest stops with this
//   message.
// - FinalityMismatchError: the node's block differs from the one the log holds (engine/README.md, Pipeline).
// classifyRpcError maps whatever viem throws (HttpRequestError, RpcRequestError subclasses, TimeoutError, fetch
// failures) onto these by HTTP status, JSON-RPC code and the message texts common providers use. The two that
// stop ingest print as one line: a fatal answer is the surroundings' (EnvironmentError), a mismatch the user's to
// mend with a rewind (RefusedError).
import { EnvironmentError } from '../../engine/environmentError.js';
import { RefusedError } from '../../engine/refusedError.js';

export class RpcRangeError extends Error {
  override name = 'RpcRangeError';
}

export class RpcRetryableError extends Error {
  override name = 'RpcRetryableError';
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export class RpcFatalError extends EnvironmentError {
  override name = 'RpcFatalError';
}

/** A node that answers but holds no venue contract where the config says: another chain, or the wrong config. */
export class RpcWrongChainError extends RpcFatalError {
  override name = 'RpcWrongChainError';
}

/** A retryable error that outlived the retry budget: fatal, with its facts kept for a message that fits the phase. */
export class RpcRetriesSpentError extends RpcFatalError {
  override name = 'RpcRetriesSpentError';
  constructor(
    readonly method: string,
    readonly attempts: number,
    readonly lastCause: string,
    options?: ErrorOptions,
  ) {
    super(`${method} still failing after ${attempts} attempts: ${lastCause}`, options);
  }
}

export class FinalityMismatchError extends RefusedError {
  override name = 'FinalityMismatchError';
  constructor(
    readonly block: number,
    readonly nodeHash: string | null,
    readonly logHash: string,
  ) {
    super(
      `block ${block}: the node ${nodeHash === null ? 'has no such block' : `has hash ${nodeHash}`} but the log holds ${logHash}: ` +
        `the chain changed below the finalized block, or this is another chain; run tally rewind --to-block N with N below ${block}, then ingest again`,
    );
  }
}

// Messages of nodes and providers (geth, erigon, nethermind, bor, Alchemy, Infura, QuickNode, Ankr, Chainstack,
// BlastAPI, drpc, Polygon's public RPC) that mean "ask for fewer blocks".
const RANGE_MESSAGE = new RegExp(
  [
    'more than \\d+ results',
    'too many (results|logs|blocks)',
    'response size',
    'size exceeded',
    'response too (large|big)',
    'log response',
    'limit exceeded',
    'range (is )?too (large|wide|big)',
    'block range',
    'range limit',
    'exceed(s|ed)? (the )?max',
    'max(imum)? (block )?range',
    'max results',
    'query exceeds',
    'result window',
    'returned more than',
    'smaller (block )?range',
    'reduce (the )?range',
    'limited to',
    'timed? ?out',
    'timeout',
    'deadline exceeded',
  ].join('|'),
  'i',
);

// Rate limits: back off, do not shrink the range.
const RATE_MESSAGE =
  /rate.?limit|too many requests|request rate|capacity|quota|credits|throttl|exceeded the (daily|monthly)|request count/i;

// Transient node states: load-balanced providers serving from a node a little behind.
const TRANSIENT_MESSAGE =
  /header not found|unknown block|block not found|missing trie node|not synced|syncing|try again|temporar|overloaded|unavailable|connection|socket|econn|epipe|network|fetch failed|internal error/i;

// fetch's own refusals, before any connection: a port the Fetch standard blocks (1, 9, 6000, ...: undici says
// "bad port"), a scheme it cannot fetch, a malformed URL. No retry ever reaches the node.
const BAD_PORT = /\bbad port\b/i;
const UNFETCHABLE = /unknown scheme|invalid url|ERR_INVALID_URL/i;

// JSON-RPC codes (EIP-1474) that retrying cannot fix when the message gives no other hint.
const FATAL_CODES = new Set([-32700, -32600, -32601, -32602, -32003, -32004, -32006, 4001, 4100, 4200]);

interface ErrorFacts {
  text: string;
  status?: number;
  code?: number;
  timeout: boolean;
  retryAfterMs?: number;
}

/** What a chain of viem errors says: provider texts (not viem's URL and request-body lines), status, code. */
function errorFacts(error: unknown): ErrorFacts {
  const facts: ErrorFacts = { text: '', timeout: false };
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    const e = current as {
      name?: string;
      shortMessage?: string;
      details?: string;
      message?: string;
      status?: number;
      code?: unknown;
      headers?: { get?(name: string): string | null };
      cause?: unknown;
    };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') facts.timeout = true;
    // viem and fetch repeat a cause's text at several depths ("fetch failed" twice): each text once.
    const own = typeof e.shortMessage !== 'string' && typeof e.message === 'string' ? e.message : null;
    const text = typeof e.details === 'string' ? e.details : own;
    if (text !== null && !texts.includes(text)) texts.push(text);
    if (typeof e.status === 'number' && facts.status === undefined) facts.status = e.status;
    if (typeof e.code === 'number' && facts.code === undefined) facts.code = e.code;
    if (typeof e.code === 'string' && !texts.some((t) => t.includes(e.code as string))) texts.push(e.code);
    const retryAfter = typeof e.headers?.get === 'function' ? e.headers.get('retry-after') : null;
    if (retryAfter && facts.retryAfterMs === undefined) {
      const seconds = Number(retryAfter);
      if (Number.isFinite(seconds) && seconds >= 0) facts.retryAfterMs = seconds * 1000;
    }
    current = e.cause;
  }
  facts.text = texts.join('; ');
  return facts;
}

/**
 * True when the node itself answered with a JSON-RPC error (some providers send those with a 4xx status), as
 * opposed to the network failing, a timeout, or an overloaded or rate-limiting server.
 */
export function isNodeAnswer(error: unknown): boolean {
  const facts = errorFacts(error);
  return (
    facts.code !== undefined &&
    (facts.status === undefined || (facts.status < 500 && facts.status !== 429 && facts.status !== 408))
  );
}

/** A one-line description for messages: the provider's own words when there are any. */
export function describeRpcError(error: unknown): string {
  const facts = errorFacts(error);
  const parts = [
    facts.status !== undefined ? `HTTP ${facts.status}` : '',
    facts.code !== undefined ? `code ${facts.code}` : '',
    facts.text,
  ];
  const text = parts.filter((part) => part.length > 0).join(', ');
  return text.length > 0 ? text.slice(0, 400) : String((error as Error)?.message ?? error).slice(0, 400);
}

/**
 * Maps a failed request onto the source's error types. `method` decides whether a range error is possible:
 * only eth_getLogs can be fixed by a smaller range; for anything else those texts mean a retryable timeout.
 */
export function classifyRpcError(error: unknown, method: string): RpcRangeError | RpcRetryableError | RpcFatalError {
  if (error instanceof RpcRangeError || error instanceof RpcRetryableError || error instanceof RpcFatalError)
    return error;
  const facts = errorFacts(error);
  const what = `${method}: ${describeRpcError(error)}`;
  const getLogs = method === 'eth_getLogs';
  if (RATE_MESSAGE.test(facts.text) || facts.status === 429)
    return new RpcRetryableError(what, facts.retryAfterMs, { cause: error });
  if (getLogs && (RANGE_MESSAGE.test(facts.text) || facts.timeout || facts.status === 413 || facts.status === 504)) {
    return new RpcRangeError(what, { cause: error });
  }
  if (facts.timeout || RANGE_MESSAGE.test(facts.text)) return new RpcRetryableError(what, undefined, { cause: error });
  if (facts.status !== undefined) {
    if (facts.status === 408 || facts.status === 425 || facts.status >= 500)
      return new RpcRetryableError(what, facts.retryAfterMs, { cause: error });
    if (facts.status >= 400) return new RpcFatalError(what, { cause: error });
  }
  if (facts.status === undefined && BAD_PORT.test(facts.text)) {
    const fix = 'fetch never connects to this port (the Fetch standard blocks it): serve the node on another port';
    return new RpcFatalError(`${what}: ${fix}`, { cause: error });
  }
  if (facts.status === undefined && UNFETCHABLE.test(facts.text)) {
    return new RpcFatalError(`${what}: not a URL fetch can use (give the node's http:// or https:// URL)`, {
      cause: error,
    });
  }
  if (facts.code !== undefined && FATAL_CODES.has(facts.code) && !TRANSIENT_MESSAGE.test(facts.text)) {
    return new RpcFatalError(what, { cause: error });
  }
  // Everything else (network failures without a status, -32000/-32603 server errors, unknown codes) is
  // retried: the retry budget turns a persistent one into a fatal error soon enough.
  return new RpcRetryableError(what, undefined, { cause: error });
}
