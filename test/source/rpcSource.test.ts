// The JSON-RPC source against a real node: ganache on 127.0.0.1, contracts of our own (compiled by solc-js)
// emitting the venue's event signatures at the addresses config.json maps, then the real `tally` command, the
// in-process follow mode, adaptive ranges, the finalized-tag fallback and the finality check.
import t from 'tap';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { custom, http, type Transport } from 'viem';
import type { BlockEvents } from '../../engine/chain/chainEvent.js';
import { loadVenueAddresses } from '../../engine/chain/loadVenueAddresses.js';
import { openVenue } from '../../cli/openVenue.js';
import { readSourceHead } from '../../engine/state/sourceHead.js';
import { createLogDecoder } from '../../replay/decode/decodeLog.js';
import { ingestRpc, type RpcIngestProgress } from '../../replay/ingest/ingestRpc.js';
import { readRpcBatches, type RpcSourceOptions } from '../../replay/source/readRpcBatches.js';
import { FinalityMismatchError } from '../../replay/source/rpcErrors.js';
import { writeCaptureFromNode } from '../fixtures/captureFromNode.js';
import { startLocalChain } from '../fixtures/localChain.js';
import { runTallyAsync } from '../fixtures/runTally.js';
import { stateDigest } from '../../engine/state/stateDigest.js';
import { startTallyRun } from '../fixtures/tallyRun.js';
import { emitVenueScenario, mineTransfer } from '../fixtures/venueScenario.js';
import { isSourceRecord } from '../fixtures/sourceRecords.js';

const chain = await startLocalChain();
t.teardown(() => chain.close());
const scenario = await emitVenueScenario(chain);
const root = mkdtempSync(join(tmpdir(), 'tally-rpc-'));

function dataDir(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ addresses: scenario.config }));
  return dir;
}

const addresses = loadVenueAddresses(join(dataDir('addresses'), 'config.json'));
const blockNumber = async () => parseInt(await chain.rpc<string>('eth_blockNumber'), 16);

async function readAll(
  options: Partial<RpcSourceOptions> = {},
): Promise<{ blocks: BlockEvents[]; batches: number; lastBlock: number }> {
  const blocks: BlockEvents[] = [];
  let batches = 0;
  let lastBlock = -1;
  for await (const batch of readRpcBatches({
    url: chain.url,
    addresses,
    decoder: createLogDecoder(addresses),
    afterBlock: -1,
    retry: { retries: 2, baseMs: 10 },
    ...options,
  })) {
    blocks.push(...batch.blocks);
    batches++;
    lastBlock = batch.lastBlock;
  }
  return { blocks, batches, lastBlock };
}

/**
 * The real node behind a viem custom transport that can refuse some requests the way providers do, or change
 * its answers.
 */
function wrappedTransport(
  refuse: (method: string, params: unknown[]) => Error | null,
  change = (_method: string, result: unknown) => result,
): Transport {
  const node = http(chain.url, { retryCount: 0 })({ retryCount: 0 });
  return custom(
    {
      async request({ method, params }: { method: string; params: unknown[] }) {
        const refusal = refuse(method, params);
        if (refusal) throw refusal;
        return change(method, await node.request({ method, params } as never));
      },
    },
    { retryCount: 0 },
  );
}

const rpcData = dataDir('rpc');

t.test('default: tally ingest --rpc folds the chain, again adds nothing, verify passes', async (t) => {
  const first = await runTallyAsync(['ingest', '--data', rpcData, '--rpc', chain.url]);
  t.equal(first.code, 0, first.stderr);
  const lastEventBlock = scenario.eventBlocks.at(-1)!;
  t.match(first.stderr, new RegExp(`last block ${lastEventBlock}\\b`));
  const expected = (await readAll()).blocks.reduce((sum, block) => sum + block.events.length, 0);
  t.match(
    first.stderr,
    new RegExp(`events ${expected}, blocks ${scenario.eventBlocks.length}\\b`),
    'every event of every block folded',
  );
  // Every event found its market: nothing was skipped as unknown or mismatched.
  t.notMatch(first.stderr, /unknownCondition|unknownNegRiskMarket|tokenMismatch|unresolvedRedemption|malformed":[1-9]/);

  const before = await stateDigest(join(rpcData, 'state'));
  const again = await runTallyAsync(['ingest', '--data', rpcData, '--rpc', chain.url]);
  t.equal(again.code, 0, again.stderr);
  t.match(again.stderr, /logs 0, events 0, blocks 0/);
  t.equal(await stateDigest(join(rpcData, 'state')), before, 'state unchanged');

  const verify = await runTallyAsync(['verify', '--data', rpcData]);
  t.equal(verify.code, 0, verify.stdout + verify.stderr);
});

t.test('behavior: the same logs as a capture file fold to the identical state', async (t) => {
  const capture = join(root, 'node.ndjson');
  const lines = await writeCaptureFromNode(chain.url, capture, await blockNumber());
  t.ok(lines > 0);
  const captureData = dataDir('capture');
  const ingest = await runTallyAsync(['ingest', '--data', captureData, '--capture', capture]);
  t.equal(ingest.code, 0, ingest.stderr);
  t.equal(
    await stateDigest(join(captureData, 'state'), isSourceRecord),
    await stateDigest(join(rpcData, 'state'), isSourceRecord),
  );
});

t.test('behavior: follow picks up a block mined after it started, then stops on abort', async (t) => {
  const venue = openVenue(dataDir('follow'));
  const controller = new AbortController();
  let progress: RpcIngestProgress | null = null;
  const running = ingestRpc({
    url: chain.url,
    log: venue.log,
    store: venue.store,
    runner: venue.runner,
    decoder: venue.decoder,
    addresses: venue.addresses,
    // A copy as onProgress sees it: the source mutates its progress object before the batch's head is written.
    follow: true,
    pollMs: 50,
    signal: controller.signal,
    onProgress: (p) => (progress = { ...p }),
  });
  const waitFor = async (what: string, done: () => boolean) => {
    for (let waited = 0; !done(); waited += 20) {
      if (waited > 30_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    const head = await blockNumber();
    await waitFor('the catch-up', () => progress !== null && progress.scannedBlock >= head);
    t.equal(venue.runner.cursor().block, scenario.eventBlocks.at(-1));
    const mined = await mineTransfer(chain, scenario);
    await waitFor('the new block', () => progress!.lastBlock === mined);
    t.equal(venue.runner.cursor().block, mined, 'folded');
    t.equal(readSourceHead(venue.store)?.block, mined, 'the finalized head is recorded for /v1/health');
  } finally {
    controller.abort();
    const result = await running;
    t.ok(result.lastBlock > 0, 'stopped cleanly');
    await venue.close();
  }
});

t.test('behavior: adaptive ranges still get every log when the node refuses wide ranges', async (t) => {
  const baseline = await readAll();
  let refusals = 0;
  const narrow = await readAll({
    transport: wrappedTransport((method, params) => {
      if (method !== 'eth_getLogs') return null;
      const filter = params[0] as { fromBlock: string; toBlock: string };
      if (parseInt(filter.toBlock, 16) - parseInt(filter.fromBlock, 16) + 1 <= 3) return null;
      refusals++;
      return Object.assign(new Error('query returned more than 10000 results'), { code: -32005 });
    }),
  });
  t.ok(refusals > 0, `the wide ranges were refused (${refusals} times)`);
  t.ok(narrow.batches > baseline.batches, `more, smaller ranges (${narrow.batches} vs ${baseline.batches})`);
  t.same(narrow.blocks, baseline.blocks, 'the same blocks and events');
  t.ok(baseline.blocks.length >= scenario.eventBlocks.length);

  const capped = await readAll({ range: { logCap: 4 } });
  t.same(capped.blocks, baseline.blocks, 'an answer at the log cap is refetched in halves');
});

t.test(
  'behavior: a node without the finalized tag is read up to latest minus the confirmations, said once',
  async (t) => {
    const warnings: string[] = [];
    const latest = await blockNumber();
    const result = await readAll({
      confirmations: 4,
      warn: (message) => warnings.push(message),
      transport: wrappedTransport((method, params) =>
        method === 'eth_getBlockByNumber' && params[0] === 'finalized'
          ? Object.assign(new Error("invalid block tag 'finalized'"), { code: -32602 })
          : null,
      ),
    });
    t.equal(warnings.length, 1);
    t.match(warnings[0], /does not serve the 'finalized' block .*latest minus 4 blocks/);
    t.equal(result.lastBlock, latest - 4);
    t.same(
      result.blocks,
      (await readAll()).blocks.filter((block) => block.block <= latest - 4),
    );
  },
);

t.test('behavior: a node that sends blockTimestamp with its logs is not asked for headers', async (t) => {
  const asked: string[] = [];
  const result = await readAll({
    transport: wrappedTransport(
      (method, params) => {
        if (method === 'eth_getBlockByNumber') asked.push(String(params[0]));
        return null;
      },
      (method, result) =>
        method === 'eth_getLogs'
          ? (result as Array<Record<string, unknown>>).map((log) => ({ ...log, blockTimestamp: '0x3039' }))
          : result,
    ),
  });
  t.ok(result.blocks.length > 0);
  t.ok(
    result.blocks.every((block) => block.ts === 12345),
    "the logs' timestamps are used",
  );
  t.same(
    asked.filter((tag) => tag.startsWith('0x')),
    [],
    'no block header fetched',
  );
});

t.test('error: a block hash that differs from the log names the block and says to rewind', async (t) => {
  const block = scenario.eventBlocks[3]!;
  const right = (await readAll()).blocks.find((b) => b.block === block)!.hash;
  const after = await readAll({ afterBlock: block, knownHash: (n) => (n === block ? right : undefined) });
  t.ok(
    after.blocks.every((b) => b.block > block),
    'a matching hash reads on after the block',
  );
  let error: unknown = null;
  try {
    await readAll({ afterBlock: block, knownHash: (n) => (n === block ? '0x' + 'ab'.repeat(32) : undefined) });
  } catch (caught) {
    error = caught;
  }
  t.ok(error instanceof FinalityMismatchError);
  t.match((error as Error).message, new RegExp(`^block ${block}: the node has hash ${right} but the log holds 0xabab`));
  t.match((error as Error).message, /tally rewind --to-block/);
});

t.test('error: a node without the configured contracts is refused as another chain', async (t) => {
  const bare = join(root, 'polygon-defaults');
  const result = await runTallyAsync(['ingest', '--data', bare, '--rpc', chain.url]);
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    /tally: http:\/\/127\.0\.0\.1:\d+ \(chain id 1337\) has no contract at the CTF address 0x4d97dcd97ec945f40cf65f87097ace5ea0476045/,
  );
});

t.test('behavior: tally run follows the chain and serves /v1/health', async (t) => {
  const run = await startTallyRun(dataDir('run'), ['--rpc', chain.url]);
  try {
    const latest = await blockNumber();
    const lastEventBlock = (await readAll()).blocks.at(-1)!.block;
    let health = null as { block: number; sourceHead: number } | null;
    for (let waited = 0; health?.sourceHead !== latest || health.block !== lastEventBlock; waited += 100) {
      if (waited > 60_000) throw new Error(`tally run did not catch up: ${JSON.stringify(health)} ${run.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      health = (await (await run.get('/health')).json()) as typeof health;
    }
    t.equal(health!.sourceHead, latest, "sourceHead is the node's finalized block");
  } finally {
    t.equal(await run.stop(), 0, run.stderr());
  }
});
