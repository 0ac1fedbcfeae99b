// The devnet's chain (replay/devnet/devnetChain.ts) over a hand-made capture, with the clock in the test's hand: the
// head starts where asked and moves `pace` chain seconds a wall second, blocks between the capture's are empty with
// times in between, `finalized` trails by FINALITY_BLOCKS, and eth_getLogs filters by block range, address and
// topics and refuses answers over MAX_LOGS. Then the JSON-RPC front: batches, tags, code, feed proxies, errors.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDevnetChain, FINALITY_BLOCKS, MAX_LOGS } from '../../replay/devnet/devnetChain.js';
import { indexCapture } from '../../replay/devnet/indexCapture.js';
import { serveDevnet } from '../../replay/devnet/serveDevnet.js';
import { InputError } from '../../engine/inputError.js';
import { processTempDir } from '../fixtures/processTempDir.js';

const dir = processTempDir('tally-devnet-chain-');
const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const T1 = '0x' + '1'.repeat(64);
const T2 = '0x' + '2'.repeat(64);
const hash = (block: number) => '0x' + block.toString(16).padStart(64, '0');
const hex = (n: number) => '0x' + n.toString(16);
const line = (block: number, ts: number, logIndex: number, address: string, topics: string[]) =>
  JSON.stringify({
    address,
    topics,
    data: '0x',
    blockNumber: hex(block),
    blockHash: hash(block),
    blockTimestamp: hex(ts),
    transactionHash: '0x' + 'c'.repeat(64),
    transactionIndex: '0x0',
    logIndex: hex(logIndex),
    removed: false,
  });
const capture = join(dir, 'capture.ndjson');
writeFileSync(
  capture,
  [
    line(100, 1_000, 0, A, [T1]),
    line(100, 1_000, 1, B, [T1, T2]),
    line(110, 1_100, 0, A, [T2]),
    line(120, 1_300, 0, B, [T1, T1]),
  ].join('\n') + '\n',
);
const index = indexCapture(capture);

t.test('the capture indexed by block and line', async (t) => {
  t.equal(index.blockCount, 3);
  t.same([...index.blocks.subarray(0, 3)], [100, 110, 120]);
  t.equal(index.lineCount, 4);
  t.same(index.addresses, [A, B]);
});

t.test('the head moves with the clock at the pace, past the capture too', async (t) => {
  let now = 0;
  const chain = createDevnetChain(index, { pace: 10, startBlock: 105, now: () => now });
  t.equal(chain.latest(), 105, 'the head starts where asked');
  t.equal(chain.header(105)!.timestamp, 1_050, 'an empty block between two has a time in between');
  t.equal(chain.header(106), null, 'no block past the head');
  now = 5_000; // 50 chain seconds later: block 110 (time 1,100) is out, 111 (time 1,110) not yet
  t.equal(chain.latest(), 110);
  now = 100_000; // 1,000 chain seconds: past the capture's last block (1,300 at 120), a block every 2 s after it
  t.equal(chain.latest(), 120 + Math.floor((1_050 + 1_000 - 1_300) / 2));
  t.equal(chain.finalized(), chain.latest() - FINALITY_BLOCKS);
  const header = chain.header(120)!;
  t.equal(header.hash, hash(120), "a capture block's hash is its own");
  t.equal(header.parentHash, chain.header(119)!.hash, 'blocks chain by their parents');
  t.equal(chain.header(50)!.timestamp, 1_000 - 2 * 50, 'blocks before the capture are 2 s apart');
  chain.close();
});

t.test('pace 0 reveals the whole capture at once', async (t) => {
  const chain = createDevnetChain(index, { pace: 0, now: () => 0 });
  t.equal(chain.latest(), 120);
  t.equal(chain.finalized(), 120);
  chain.close();
});

t.test('eth_getLogs: by range, address and topics; never past the head', async (t) => {
  const chain = createDevnetChain(index, { pace: 0, now: () => 0 });
  const logs = (filter: Partial<Parameters<typeof chain.logs>[0]>) =>
    chain
      .logs({ fromBlock: 0, toBlock: 1_000, address: null, topics: [], ...filter })
      .map((text) => JSON.parse(text) as { blockNumber: string; logIndex: string });
  t.equal(logs({}).length, 4);
  t.equal(logs({ fromBlock: 101, toBlock: 119 }).length, 1);
  t.equal(logs({ address: new Set([B]) }).length, 2);
  t.equal(logs({ topics: [new Set([T2])] }).length, 1);
  t.equal(logs({ topics: [null, new Set([T2])] }).length, 1, 'a later topic narrows too');
  t.equal(logs({ topics: [new Set([T1]), new Set([T1])] }).length, 1);
  t.same(logs({ fromBlock: 120, toBlock: 120 }), [JSON.parse(line(120, 1_300, 0, B, [T1, T1]))]);
  chain.close();
  const early = createDevnetChain(index, { pace: 1, startBlock: 105, now: () => 0 });
  t.equal(
    early.logs({ fromBlock: 0, toBlock: 1_000, address: null, topics: [] }).length,
    2,
    'blocks past the head hold none yet',
  );
  early.close();
});

t.test('more logs than an answer holds: the range error nodes give', async (t) => {
  const big = join(dir, 'big.ndjson');
  writeFileSync(big, Array.from({ length: MAX_LOGS + 1 }, (_, i) => line(200, 5_000, i, A, [T1])).join('\n') + '\n');
  const chain = createDevnetChain(indexCapture(big), { pace: 0, now: () => 0 });
  t.throws(() => chain.logs({ fromBlock: 0, toBlock: 300, address: null, topics: [] }), /more than 10000 results/);
  chain.close();
});

t.test('a capture out of chain order is refused, naming the line', async (t) => {
  const bad = join(dir, 'bad.ndjson');
  writeFileSync(bad, [line(110, 1_100, 0, A, [T1]), line(100, 1_000, 0, A, [T1])].join('\n') + '\n');
  t.throws(() => indexCapture(bad), InputError);
  t.throws(() => indexCapture(bad), new RegExp(`${bad}:2: block 100 after block 110`));
});

t.test('the JSON-RPC front: batches, tags, code, feed proxies and errors', async (t) => {
  const chain = createDevnetChain(index, { pace: 0, now: () => 0 });
  const aggregator = '0x' + 'f'.repeat(40);
  const proxy = '0x' + 'e'.repeat(40);
  const server = serveDevnet(chain, {
    code: new Set([A, proxy, aggregator]),
    proxies: new Map([[proxy, [aggregator]]]),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.close();
    chain.close();
  });
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const post = async (body: unknown) => (await fetch(url, { method: 'POST', body: JSON.stringify(body) })).json();
  const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params });
  const answers = (await post([
    call('eth_chainId', [], 1),
    call('eth_blockNumber', [], 2),
    call('eth_getBlockByNumber', ['finalized', false], 3),
    call('eth_getCode', [A, 'latest'], 4),
    call('eth_getCode', [B, 'latest'], 5),
    call('eth_call', [{ to: proxy, data: '0xfeaf968c' }, 'latest'], 6),
    call('eth_getLogs', [{ fromBlock: '0x64', toBlock: 'latest', address: A }], 7),
    call('eth_sendRawTransaction', ['0x'], 8),
    call('eth_getLogs', [{ blockHash: hash(100) }], 9),
  ])) as Array<{ id: number; result?: unknown; error?: { code: number; message: string } }>;
  t.same(
    answers.map((answer) => answer.id),
    [1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  t.equal(answers[0]!.result, '0x89', 'chain 137: the venue is at its Polygon addresses');
  t.equal(answers[1]!.result, hex(120));
  t.equal((answers[2]!.result as { number: string }).number, hex(120));
  t.equal(answers[3]!.result, '0x00');
  t.equal(answers[4]!.result, '0x');
  t.equal(answers[5]!.error?.message, 'execution reverted', 'a call the proxy does not answer reverts');
  t.equal((answers[6]!.result as unknown[]).length, 2);
  t.equal(answers[7]!.error?.code, -32601);
  t.equal(answers[8]!.error?.code, -32602);
  const phase = (await post(call('eth_call', [{ to: proxy, data: '0x58303b10' }, 'latest']))) as { result: string };
  t.equal(BigInt(phase.result), 1n, 'phaseId(): one phase');
  const aggregatorOf = (await post(
    call('eth_call', [{ to: proxy, data: '0xc1597304' + '1'.padStart(64, '0') }, 'latest']),
  )) as { result: string };
  t.equal('0x' + BigInt(aggregatorOf.result).toString(16).padStart(40, '0'), aggregator, 'phaseAggregators(1)');
  const parseError = await (await fetch(url, { method: 'POST', body: '{' })).json();
  t.equal((parseError as { error: { code: number } }).error.code, -32700);
  t.equal((await fetch(url)).status, 405);
});
