// classifyRpcError and retryRpc: what viem throws for the common provider answers, mapped onto range,
// retryable and fatal errors; retries with backoff until success, a fatal error or the end of the budget.
import t from 'tap';
import {
  HttpRequestError, InternalRpcError, InvalidParamsRpcError, LimitExceededRpcError, MethodNotFoundRpcError, RpcRequestError, TimeoutError,
} from 'viem';
import { retryRpc } from '../../replay/source/retryRpc.js';
import {
  classifyRpcError, isNodeAnswer, RpcFatalError, RpcRangeError, RpcRetryableError,
} from '../../replay/source/rpcErrors.js';

const url = 'http://127.0.0.1:1';
const rpcError = (code: number, message: string) => new RpcRequestError({ body: {}, error: { code, message }, url });
const kindOf = (error: unknown, method = 'eth_getLogs') => classifyRpcError(error, method).name;

t.test('default: provider answers that a smaller eth_getLogs range fixes', async (t) => {
  const cases: Array<[string, unknown]> = [
    ['geth/infura', new LimitExceededRpcError(rpcError(-32005, 'query returned more than 10000 results'))],
    ['alchemy', new InvalidParamsRpcError(rpcError(-32602, 'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range'))],
    ['quicknode', rpcError(-32614, 'eth_getLogs is limited to a 10,000 range')],
    ['ankr', rpcError(-32062, 'block range is too wide')],
    ['polygon', rpcError(-32000, 'exceed maximum block range: 1000')],
    ['erigon', rpcError(-32000, 'query exceeds max results 20000')],
    ['timeout', new TimeoutError({ body: {}, url })],
    ['gateway timeout', new HttpRequestError({ url, status: 504, details: 'Gateway Time-out' })],
  ];
  for (const [name, error] of cases) t.equal(kindOf(error), 'RpcRangeError', name);
  t.equal(kindOf(new TimeoutError({ body: {}, url }), 'eth_chainId'), 'RpcRetryableError', 'a timeout elsewhere is retried');
});

t.test('default: retryable answers', async (t) => {
  const cases: Array<[string, unknown]> = [
    ['429', new HttpRequestError({ url, status: 429, details: 'Too Many Requests' })],
    ['503', new HttpRequestError({ url, status: 503, details: 'Service Unavailable' })],
    ['connection refused', new HttpRequestError({ url, details: 'fetch failed', cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }) })],
    ['rate limit as -32005', new LimitExceededRpcError(rpcError(-32005, 'daily request count exceeded, request rate limited'))],
    ['node behind', rpcError(-32000, 'header not found')],
    ['internal', new InternalRpcError(rpcError(-32603, 'internal error'))],
  ];
  for (const [name, error] of cases) t.equal(kindOf(error), 'RpcRetryableError', name);
  const retryAfter = classifyRpcError(new HttpRequestError({ url, status: 429, headers: new Headers({ 'retry-after': '3' }) }), 'eth_getLogs');
  t.equal((retryAfter as RpcRetryableError).retryAfterMs, 3000, 'Retry-After is honoured');
});

t.test('error: fatal answers', async (t) => {
  const cases: Array<[string, unknown]> = [
    ['invalid params', new InvalidParamsRpcError(rpcError(-32602, 'invalid argument 0: hex string without 0x prefix'))],
    ['unknown method', new MethodNotFoundRpcError(rpcError(-32601, 'the method eth_getLogs does not exist/is not available'))],
    ['unauthorised', new HttpRequestError({ url, status: 401, details: 'Unauthorized' })],
    ['bad request', new HttpRequestError({ url, status: 400, details: 'Bad Request' })],
  ];
  for (const [name, error] of cases) t.equal(kindOf(error), 'RpcFatalError', name);
  t.ok(isNodeAnswer(cases[0]![1]), 'a JSON-RPC error is the node\'s answer');
  t.notOk(isNodeAnswer(new TimeoutError({ body: {}, url })), 'a timeout is not');
});

t.test('behavior: retryRpc retries until success, stops at once on fatal, gives up after the budget', async (t) => {
  let calls = 0;
  const value = await retryRpc('eth_chainId', async () => {
    if (++calls < 3) throw new HttpRequestError({ url, status: 503 });
    return 'ok';
  }, { retries: 5, baseMs: 1 });
  t.equal(value, 'ok');
  t.equal(calls, 3);

  calls = 0;
  await t.rejects(retryRpc('eth_getLogs', async () => {
    calls++;
    throw new InvalidParamsRpcError(rpcError(-32602, 'invalid argument'));
  }, { retries: 5, baseMs: 1 }), RpcFatalError);
  t.equal(calls, 1, 'a fatal error is not retried');

  calls = 0;
  await t.rejects(retryRpc('eth_getLogs', async () => {
    calls++;
    throw new LimitExceededRpcError(rpcError(-32005, 'query returned more than 10000 results'));
  }, { retries: 5, baseMs: 1 }), RpcRangeError);
  t.equal(calls, 1, 'a range error goes to the caller, which halves');

  calls = 0;
  await t.rejects(retryRpc('eth_chainId', async () => {
    calls++;
    throw new HttpRequestError({ url, status: 502 });
  }, { retries: 2, baseMs: 1 }), { name: 'RpcFatalError', message: /still failing after 3 attempts: HTTP 502/ });
  t.equal(calls, 3);
});
