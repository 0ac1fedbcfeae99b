// classifyRpcError and retryRpc: what viem throws for the common provider answers, mapped onto range,
// retryable and fatal errors; retries with backoff until success, a fatal error or the end of the budget.
import t from 'tap';
import {
  custom,
  HttpRequestError,
  InternalRpcError,
  InvalidParamsRpcError,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
  RpcRequestError,
  TimeoutError,
} from 'viem';
import { createRpcClient } from '../../replay/source/createRpcClient.js';
import { retryRpc, type RpcRetry } from '../../replay/source/retryRpc.js';
import {
  classifyRpcError,
  isNodeAnswer,
  RpcFatalError,
  RpcRangeError,
  RpcRetryableError,
} from '../../replay/source/rpcErrors.js';

const url = 'http://127.0.0.1:1';
const rpcError = (code: number, message: string) => new RpcRequestError({ body: {}, error: { code, message }, url });
const kindOf = (error: unknown, method = 'eth_getLogs') => classifyRpcError(error, method).name;

t.test('default: provider answers that a smaller eth_getLogs range fixes', async (t) => {
  const cases: Array<[string, unknown]> = [
    ['geth/infura', new LimitExceededRpcError(rpcError(-32005, 'query returned more than 10000 results'))],
    [
      'alchemy',
      new InvalidParamsRpcError(
        rpcError(-32602, 'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range'),
      ),
    ],
    ['quicknode', rpcError(-32614, 'eth_getLogs is limited to a 10,000 range')],
    ['ankr', rpcError(-32062, 'block range is too wide')],
    ['polygon', rpcError(-32000, 'exceed maximum block range: 1000')],
    ['erigon', rpcError(-32000, 'query exceeds max results 20000')],
    ['timeout', new TimeoutError({ body: {}, url })],
    ['gateway timeout', new HttpRequestError({ url, status: 504, details: 'Gateway Time-out' })],
  ];
  for (const [name, error] of cases) t.equal(kindOf(error), 'RpcRangeError', name);
  t.equal(
    kindOf(new TimeoutError({ body: {}, url }), 'eth_chainId'),
    'RpcRetryableError',
    'a timeout elsewhere is retried',
  );
});

t.test('default: retryable answers', async (t) => {
  const cases: Array<[string, unknown]> = [
    ['429', new HttpRequestError({ url, status: 429, details: 'Too Many Requests' })],
    ['503', new HttpRequestError({ url, status: 503, details: 'Service Unavailable' })],
    [
      'connection refused',
      new HttpRequestError({
        url,
        details: 'fetch failed',
        cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
      }),
    ],
    [
      'rate limit as -32005',
      new LimitExceededRpcError(rpcError(-32005, 'daily request count exceeded, request rate limited')),
    ],
    ['node behind', rpcError(-32000, 'header not found')],
    ['internal', new InternalRpcError(rpcError(-32603, 'internal error'))],
  ];
  for (const [name, error] of cases) t.equal(kindOf(error), 'RpcRetryableError', name);
  const retryAfter = classifyRpcError(
    new HttpRequestError({ url, status: 429, headers: new Headers({ 'retry-after': '3' }) }),
    'eth_getLogs',
  );
  t.equal((retryAfter as RpcRetryableError).retryAfterMs, 3000, 'Retry-After is honoured');
});

t.test('error: fatal answers', async (t) => {
  const cases: Array<[string, unknown]> = [
    ['invalid params', new InvalidParamsRpcError(rpcError(-32602, 'invalid argument 0: hex string without 0x prefix'))],
    [
      'unknown method',
      new MethodNotFoundRpcError(rpcError(-32601, 'the method eth_getLogs does not exist/is not available')),
    ],
    ['unauthorised', new HttpRequestError({ url, status: 401, details: 'Unauthorized' })],
    ['bad request', new HttpRequestError({ url, status: 400, details: 'Bad Request' })],
    [
      'a port fetch blocks',
      new HttpRequestError({
        url,
        details: 'fetch failed',
        cause: Object.assign(new TypeError('fetch failed'), { cause: new Error('bad port') }),
      }),
    ],
    [
      'a scheme fetch cannot use',
      new HttpRequestError({
        url,
        details: 'fetch failed',
        cause: Object.assign(new TypeError('fetch failed'), { cause: new Error('unknown scheme') }),
      }),
    ],
  ];
  for (const [name, error] of cases) t.equal(kindOf(error), 'RpcFatalError', name);
  t.ok(isNodeAnswer(cases[0]![1]), "a JSON-RPC error is the node's answer");
  t.notOk(isNodeAnswer(new TimeoutError({ body: {}, url })), 'a timeout is not');
});

t.test('behavior: retryRpc retries until success, stops at once on fatal, gives up after the budget', async (t) => {
  let calls = 0;
  const value = await retryRpc(
    'eth_chainId',
    async () => {
      if (++calls < 3) throw new HttpRequestError({ url, status: 503 });
      return 'ok';
    },
    { policy: { retries: 5, baseMs: 1 } },
  );
  t.equal(value, 'ok');
  t.equal(calls, 3);

  calls = 0;
  await t.rejects(
    retryRpc(
      'eth_getLogs',
      async () => {
        calls++;
        throw new InvalidParamsRpcError(rpcError(-32602, 'invalid argument'));
      },
      { policy: { retries: 5, baseMs: 1 } },
    ),
    RpcFatalError,
  );
  t.equal(calls, 1, 'a fatal error is not retried');

  calls = 0;
  await t.rejects(
    retryRpc(
      'eth_getLogs',
      async () => {
        calls++;
        throw new LimitExceededRpcError(rpcError(-32005, 'query returned more than 10000 results'));
      },
      { policy: { retries: 5, baseMs: 1 } },
    ),
    RpcRangeError,
  );
  t.equal(calls, 1, 'a range error goes to the caller, which halves');

  calls = 0;
  await t.rejects(
    retryRpc(
      'eth_chainId',
      async () => {
        calls++;
        throw new HttpRequestError({ url, status: 502 });
      },
      { policy: { retries: 2, baseMs: 1 } },
    ),
    { name: 'RpcRetriesSpentError', message: /still failing after 3 attempts: HTTP 502/ },
  );
  t.equal(calls, 3);
});

t.test('behavior: retryRpc tells every retry, with its cause, before waiting', async (t) => {
  const told: RpcRetry[] = [];
  let calls = 0;
  await t.rejects(
    retryRpc(
      'eth_chainId',
      async () => {
        calls++;
        throw new HttpRequestError({ url, status: 503, details: 'Service Unavailable' });
      },
      { policy: { retries: 2, baseMs: 1 }, onRetry: (retry) => told.push(retry) },
    ),
    { name: 'RpcRetriesSpentError' },
  );
  t.equal(calls, 3);
  t.same(
    told.map((r) => [r.method, r.attempt, r.attempts]),
    [
      ['eth_chainId', 1, 3],
      ['eth_chainId', 2, 3],
    ],
    'each retry, not the last failure',
  );
  for (const retry of told) {
    t.match(retry.cause, /HTTP 503, Service Unavailable/);
    t.ok(retry.delayMs >= 0 && retry.delayMs <= 2, 'the wait it is about to make');
  }
});

t.test(
  'behavior: the client retries under the first-connection budget until the node answers, then under the other',
  async (t) => {
    /** A node answering the calls whose number (from 1) `answers` holds, and 503 to every other. */
    const node = (answers: (call: number) => boolean) => {
      let calls = 0;
      return custom({
        async request() {
          if (answers(++calls)) return '0x89';
          throw new HttpRequestError({ url, status: 503, details: 'Service Unavailable' });
        },
      });
    };
    const policies = { firstRetry: { retries: 1, baseMs: 1 }, retry: { retries: 4, baseMs: 1 } };
    const down = createRpcClient({
      url: 'http://127.0.0.1:8545/secret-key',
      transport: node(() => false),
      ...policies,
    });
    await t.rejects(
      down.request('eth_chainId', []),
      {
        name: 'RpcFatalError',
        message:
          'http://127.0.0.1:8545/… did not answer eth_chainId in 2 attempts (HTTP 503, Service Unavailable): check the URL and that the node is running',
      },
      'two attempts, and the URL without its path',
    );

    // Answered once: three failures in a row are within the connected budget (5 attempts), not the first one (2).
    const told: RpcRetry[] = [];
    const flaky = createRpcClient({
      url,
      transport: node((call) => call === 1 || call === 5),
      ...policies,
      onRetry: (r) => told.push(r),
    });
    t.equal(await flaky.request('eth_chainId', []), '0x89');
    t.equal(await flaky.request('eth_chainId', []), '0x89');
    t.same(
      told.map((r) => r.attempts),
      [5, 5, 5],
    );
  },
);
