// The fills table and its lists: a row's stored form round-trips every field; a list bucket holds exactly the
// fills of its range of the venue's fills, in chain order, whatever the batches were, and its owner's epoch bitmap
// names it; a process that resumes mid-bucket appends to what an earlier one wrote; on a folded demo both kinds of
// list name every fill, and the bitmaps name exactly the lists.
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createFillLists,
  FILL_BUCKET,
  FILL_EPOCH_BUCKETS,
  FILL_EPOCHS,
  fillEntriesNewestFirst,
  hasBucket,
} from '../../engine/state/createFillLists.js';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { openStateStore, putStateWrite } from '../../engine/state/openStateStore.js';
import type { FillPosition, StoredFill } from '../../engine/state/storedFill.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { fillEpochKey, fillListKey, walletListOwner } from '../../engine/state/stateKeys.js';
import type { StateWrite } from '../../engine/state/stateWrite.js';
import { createDemoData } from '../fixtures/demoData.js';
import { writeFillsState } from '../../bench/writeFillsState.js';
import {
  blockFillCount,
  blockFillOffset,
  decodeFillNumbers,
  decodeTradeRow,
  encodeBlockFills,
  FEE_UNIT,
  findBlockFill,
  ROLE,
  SIDE,
  type TradeRow,
} from '../../engine/state/tradeRow.js';

const WALLET = '0x' + 'ab'.repeat(20);
/** The wallet's state id in the fill-list cases. */
const WALLET_ID = 7;
const MARKET = '0x' + 'cd'.repeat(32);

t.test(
  "behavior: a block's fills round-trip through their stored form, each transaction hash stored once",
  async (t) => {
    const row: TradeRow = {
      logIndex: 70_001,
      tx: '0x' + 'ef'.repeat(32),
      wallet: WALLET,
      side: SIDE.sell,
      token: '01'.repeat(32),
      outcomeIndex: 1,
      shares: 2 ** 53 - 1,
      usd: 123_456_789,
      fee: -5,
      feeUnit: FEE_UNIT.shares,
      role: ROLE.taker,
      counterparty: '0x' + '00'.repeat(20),
      exchange: 4,
    };
    // Ids of a small dictionary: the row stores numbers, decoding asks for their texts.
    const dictionary: Record<string, string> = {
      [`${ID_SPACE.address}:7`]: WALLET,
      [`${ID_SPACE.address}:0`]: row.counterparty,
      [`${ID_SPACE.token}:70000`]: row.token,
      [`${ID_SPACE.condition}:3`]: MARKET,
    };
    const text = (space: number, id: number) =>
      dictionary[`${space}:${id}`] ?? (t.fail(`no id ${space}:${id}`) as never);
    const ids = { wallet: 7, counterparty: 0, token: 70_000, marketSpace: ID_SPACE.condition, market: 3 };
    // A match (the maker's fill and the taker's, one transaction), then a fill of a token no condition explains.
    const maker = { ...row, logIndex: 70_000, role: ROLE.maker, side: SIDE.buy, fee: 0 };
    const unknown = { ...row, logIndex: 70_002, tx: '0x' + '12'.repeat(32), outcomeIndex: -1 };
    const fills = [
      { row: maker, ids },
      { row, ids },
      { row: unknown, ids: { ...ids, marketSpace: ID_SPACE.token, market: 70_000 } },
    ];
    const stored = encodeBlockFills(1_700_000_000, fills);
    t.equal(stored.length, 12 + 2 * 32 + 3 * 52, 'a 12-byte header, two transaction hashes, three 52-byte rows');
    t.equal(blockFillCount(stored), 3);
    t.same(decodeTradeRow(stored, findBlockFill(stored, 70_001), text), { ts: 1_700_000_000, market: MARKET, row });
    t.same(decodeTradeRow(stored, findBlockFill(stored, 70_000), text), {
      ts: 1_700_000_000,
      market: MARKET,
      row: maker,
    });
    t.same(
      decodeTradeRow(stored, blockFillOffset(stored, 2), text),
      { ts: 1_700_000_000, market: row.token, row: unknown },
      'a market that is a token id',
    );
    t.equal(findBlockFill(stored, 69_999), -1, 'no fill of that log index');
    t.equal(findBlockFill(stored, 70_003), -1, 'nor of this one');
    t.same(
      decodeFillNumbers(stored, findBlockFill(stored, 70_002)),
      {
        ts: 1_700_000_000,
        logIndex: 70_002,
        outcomeIndex: -1,
        side: SIDE.sell,
        feeUnit: FEE_UNIT.shares,
        role: ROLE.taker,
        exchange: 4,
        marketSpace: ID_SPACE.token,
        shares: 2 ** 53 - 1,
        usd: 123_456_789,
        fee: -5,
        walletId: 7,
        marketId: 70_000,
      },
      'the numbers alone',
    );
    for (const tx of ['0x12', `0x${'ab'.repeat(31)}ag`, `zz${'ab'.repeat(32)}`]) {
      t.throws(() => encodeBlockFills(1, [{ row: { ...row, tx }, ids }]), {
        name: 'AssertionFailure',
        message: /a tx is 32 bytes of hex/,
      });
    }
    t.throws(
      () =>
        encodeBlockFills(1, [
          { row, ids },
          { row: maker, ids },
        ]),
      { name: 'AssertionFailure', message: /log indexes increase/ },
      'rows in log-index order',
    );
  },
);

/** Folds `fills` fills of one wallet through fresh lists in batches of `batch`, writing each batch's lists. */
async function foldLists(dir: string, fills: number, batch: number, from = 0): Promise<void> {
  const store = openStateStore({ dir });
  // The fills the state holds: a resumed process reads only their buckets back.
  const lists = createFillLists(store, from);
  const write = (writes: StateWrite[]) =>
    store.env.transactionSync(() => {
      for (const { db, key, value } of writes) putStateWrite(store, db, key, value);
    });
  for (let fill = from; fill < fills; fill++) {
    lists.add('walletFills', 0, WALLET_ID, fill, 1000 + fill, fill % 7);
    if ((fill + 1) % batch === 0) write(lists.takeWrites());
  }
  write(lists.takeWrites());
  await store.close();
}

/** The wallet lists and the wallet epoch bitmaps, as [key, bytes]. */
async function bucketsOf(dir: string): Promise<{ lists: Array<[string, Buffer]>; epochs: Array<[string, Buffer]> }> {
  const store = openStateStore({ dir, readOnly: true });
  const entries = (db: 'walletFills' | 'walletFillEpochs') =>
    [...store.dbs[db].getRange({})].map(
      ({ key, value }) => [(key as Buffer).toString('latin1'), Buffer.from(value)] as [string, Buffer],
    );
  const found = { lists: entries('walletFills'), epochs: entries('walletFillEpochs') };
  await store.close();
  return found;
}

t.test('behavior: list buckets are the same bytes whatever the batches, and a resumed process appends', async (t) => {
  const fills = FILL_BUCKET + 100;
  const dirs = ['one', 'small', 'resumed'].map((name) => mkdtempSync(join(tmpdir(), `tally-lists-${name}-`)));
  await foldLists(dirs[0]!, fills, fills);
  await foldLists(dirs[1]!, fills, 333);
  await foldLists(dirs[2]!, FILL_BUCKET + 50, 1000);
  await foldLists(dirs[2]!, fills, 7, FILL_BUCKET + 50);
  const reference = await bucketsOf(dirs[0]!);
  const owner = walletListOwner(WALLET_ID);
  t.same(
    reference.lists.map(([key]) => key),
    [fillListKey(owner, 0), fillListKey(owner, 1)],
    'one key per bucket, the bucket first',
  );
  t.same(reference.epochs, [[fillEpochKey(owner, 0), Buffer.from([3, 0, 0, 0, 0, 0, 0, 0])]], 'its epoch names both');
  const entries = [...fillEntriesNewestFirst(reference.lists[1]![1])];
  t.equal(entries.length, 100);
  t.same(entries[0], { block: 1000 + fills - 1, logIndex: (fills - 1) % 7 }, 'newest first');
  t.same(
    entries.at(-1),
    { block: 1000 + FILL_BUCKET, logIndex: FILL_BUCKET % 7 },
    'the bucket starts at its first fill',
  );
  t.same(await bucketsOf(dirs[1]!), reference, 'batches of 333');
  t.same(await bucketsOf(dirs[2]!), reference, 'a second process resuming mid-bucket');
});

t.test('behavior: on a folded demo, wallet lists and market lists name the same fills, all of them', async (t) => {
  const { data } = await createDemoData(4_000, 12);
  const store = openStateStore({ dir: join(data, 'state'), readOnly: true });
  t.teardown(() => store.close());
  const state = createStateReader(store);
  const id = (fill: StoredFill) => `${fill.block}:${fill.row.logIndex}`;
  const byWallet = new Set<string>();
  const markets = new Set<string>();
  let foreign = 0;
  for (const { wallet } of state.positionHolders()) {
    for (const fill of state.walletFills(wallet)) {
      if (fill.row.wallet !== wallet) foreign++;
      byWallet.add(id(fill));
      markets.add(fill.market);
    }
  }
  const byMarket = new Set<string>();
  for (const market of markets) {
    let newer = Infinity;
    for (const fill of state.marketFills(market)) {
      const order = fill.block * 1e6 + fill.row.logIndex;
      if (order >= newer) t.fail(`market ${market}: not newest first`);
      newer = order;
      byMarket.add(id(fill));
    }
  }
  t.equal(foreign, 0, "a wallet's list holds its own fills only");
  t.ok(byWallet.size > 1_000, `${byWallet.size} fills listed`);
  t.equal(byWallet.size, state.cursor().fills, "every fill of the table is on its wallet's list, once");
  t.same([...byMarket].sort(), [...byWallet].sort(), "and on its market's list");
  for (const db of ['walletFills', 'marketFills'] as const) {
    // A list key: the bucket (4 bytes), then its owner. An epoch key: the epoch, then the owner.
    const lists = [...store.dbs[db].getKeys({})].map((key) => {
      const text = (key as Buffer).toString('latin1');
      return `${text.slice(4)}:${(key as Buffer).readUInt32BE(0)}`;
    });
    const named: string[] = [];
    for (const { key, value } of store.dbs[FILL_EPOCHS[db]].getRange({})) {
      const epoch = (key as Buffer).readUInt32BE(0);
      const owner = (key as Buffer).toString('latin1', 4);
      for (let bucket = epoch * FILL_EPOCH_BUCKETS; bucket < (epoch + 1) * FILL_EPOCH_BUCKETS; bucket++)
        if (hasBucket(value, bucket)) named.push(`${owner}:${bucket}`);
    }
    t.ok(lists.length > 100, `${db}: ${lists.length} lists`);
    t.same(named.sort(), lists.sort(), `${FILL_EPOCHS[db]} names each list of ${db}, and nothing else`);
  }
});

t.test('behavior: a bucket read before a fill starts right below it', async (t) => {
  const value = Buffer.alloc(5 * 8);
  const entries = [
    [10, 1],
    [10, 4],
    [11, 0],
    [12, 2],
    [12, 3],
  ];
  entries.forEach(([block, logIndex], i) => {
    value.writeUInt32BE(block!, i * 8);
    value.writeUInt32BE(logIndex!, i * 8 + 4);
  });
  const read = (before: { block: number; logIndex: number } | null) =>
    [...fillEntriesNewestFirst(value, before)].map((e) => `${e.block}:${e.logIndex}`);
  t.same(read(null), ['12:3', '12:2', '11:0', '10:4', '10:1']);
  t.same(read({ block: 12, logIndex: 3 }), ['12:2', '11:0', '10:4', '10:1'], 'an entry itself is not before itself');
  t.same(read({ block: 11, logIndex: 7 }), ['11:0', '10:4', '10:1'], 'a position between entries');
  t.same(read({ block: 10, logIndex: 1 }), [], 'nothing before the first');
  t.same(read({ block: 99, logIndex: 0 }), read(null), 'everything before a later fill');
});

t.test(
  'behavior: a scan of several markets from any fill reads their fills from it on, in chain order, across buckets',
  async (t) => {
    // The fills benchmark's writer (bench/writeFillsState.ts): 40,000 fills over 3 buckets of the venue's fills,
    // blocks of several fills from several markets, three fills to a transaction.
    const dir = join(mkdtempSync(join(tmpdir(), 'tally-scan-')), 'state');
    const markets = await writeFillsState(dir, 40_000, 5);
    const store = openStateStore({ dir, readOnly: true });
    t.teardown(() => store.close());
    const state = createStateReader(store);
    t.equal(state.cursor().fills, 40_000);
    t.ok(40_000 > 2 * FILL_BUCKET, 'the lists span three buckets');
    const scan = (asked: string[], from: FillPosition, endBlock: number | null = null) => {
      const cursor = state.marketsFillCursor(asked, { from, endBlock });
      const rows: string[] = [];
      while (cursor.next())
        rows.push(`${asked[cursor.list]}:${cursor.block}:${cursor.fill.logIndex}:${cursor.fill.shares}`);
      return rows;
    };
    const whole = scan(markets, { block: 0, logIndex: 0 });
    t.equal(whole.length, 40_000, 'every fill, once');
    const order = whole.map((row) => row.split(':').slice(1, 3).map(Number) as [number, number]);
    t.ok(
      order.every(
        ([block, logIndex], i) =>
          i === 0 || block > order[i - 1]![0] || (block === order[i - 1]![0] && logIndex > order[i - 1]![1]),
      ),
      'in chain order',
    );
    // From fills in every bucket, and from between fills: the whole scan's tail.
    for (const at of [1, 9_999, 16_383, 16_384, 16_385, 25_000, 32_768, 39_999]) {
      const [block, logIndex] = order[at]!;
      t.same(scan(markets, { block, logIndex }), whole.slice(at), `from fill ${at}`);
      t.same(scan(markets, { block, logIndex: logIndex + 1 }), whole.slice(at + 1), `from just after fill ${at}`);
    }
    // One market, a window that ends before a block, a market with no fill and an unknown one.
    const [block, logIndex] = order[20_000]!;
    const end = order[30_000]![0];
    const inWindow = whole.slice(20_000).filter((row) => Number(row.split(':')[1]) < end);
    t.same(scan(markets, { block, logIndex }, end), inWindow, 'a window');
    t.same(
      scan([markets[2]!], { block, logIndex }, end),
      inWindow.filter((row) => row.startsWith(markets[2]!)),
      'one market',
    );
    t.same(
      scan(['0x' + '00'.repeat(32), markets[4]!], { block: 0, logIndex: 0 }),
      whole.filter((row) => row.startsWith(markets[4]!)),
      'an unknown market adds nothing',
    );
    t.same(scan(markets, { block: order[39_999]![0] + 1, logIndex: 0 }), [], 'nothing after the last fill');
    const done = state.marketsFillCursor([markets[4]!], {
      from: { block: order[39_999]![0], logIndex: order[39_999]![1] + 1 },
      endBlock: null,
    });
    t.equal(done.next(), false, 'a cursor past the end has no fill');
    t.equal(done.next(), false, 'and stays done when asked again');

    // Newest-first pages (the trades routes) before a fill in each bucket: the whole list's tail.
    const market = markets[0]!;
    const newestFirst = [...state.marketFills(market)].map((fill) => `${fill.block}:${fill.row.logIndex}`);
    t.ok(newestFirst.length > (2 * FILL_BUCKET) / 5, `${newestFirst.length} fills on the busiest market's list`);
    for (const at of [
      0,
      1,
      5_000,
      Math.floor(newestFirst.length / 2),
      newestFirst.length - 2,
      newestFirst.length - 1,
    ]) {
      const [block, logIndex] = newestFirst[at]!.split(':').map(Number) as [number, number];
      const page = [...state.marketFills(market, { before: { block, logIndex } })].map(
        (fill) => `${fill.block}:${fill.row.logIndex}`,
      );
      t.same(page, newestFirst.slice(at + 1), `before its fill ${at}`);
    }
  },
);

t.test(
  'behavior: lists spanning several epochs of buckets read whole, newest first, and page across them',
  async (t) => {
    // 6,000 rows numbered every 500th fill of the venue: 183 buckets, three epochs of FILL_EPOCH_BUCKETS.
    const dir = join(mkdtempSync(join(tmpdir(), 'tally-epochs-')), 'state');
    const markets = await writeFillsState(dir, 6_000, 3, 500);
    const store = openStateStore({ dir, readOnly: true });
    t.teardown(() => store.close());
    const state = createStateReader(store);
    t.ok(state.cursor().fills > 2 * FILL_EPOCH_BUCKETS * FILL_BUCKET, 'the lists span three epochs');
    const cursor = state.marketsFillCursor(markets, { from: { block: 0, logIndex: 0 }, endBlock: null });
    const whole: string[] = [];
    while (cursor.next()) whole.push(`${markets[cursor.list]}:${cursor.block}:${cursor.fill.logIndex}`);
    t.equal(whole.length, 6_000, 'every fill, once, in the scan from the start');
    const from = whole[4_321]!.split(':').slice(1).map(Number) as [number, number];
    const tail = state.marketsFillCursor(markets, { from: { block: from[0], logIndex: from[1] }, endBlock: null });
    let count = 0;
    while (tail.next()) count++;
    t.equal(count, 6_000 - 4_321, 'a scan from a fill in a later epoch');
    for (const market of markets) {
      const expected = whole
        .filter((row) => row.startsWith(market))
        .map((row) => row.slice(market.length + 1))
        .reverse();
      const listed = [...state.marketFills(market)].map((fill) => `${fill.block}:${fill.row.logIndex}`);
      t.same(listed, expected, `${market.slice(0, 10)}: the whole list, newest first`);
      for (const at of [1, Math.floor(expected.length / 3), Math.floor((2 * expected.length) / 3)]) {
        const [block, logIndex] = expected[at - 1]!.split(':').map(Number) as [number, number];
        const page = [...state.marketFills(market, { before: { block, logIndex } })].map(
          (fill) => `${fill.block}:${fill.row.logIndex}`,
        );
        t.same(page, expected.slice(at), `${market.slice(0, 10)}: the page before entry ${at}`);
      }
    }
  },
);
