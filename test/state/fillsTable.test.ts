// The fills table and its lists: a row's stored form round-trips every field; a list bucket holds exactly the
// fills of its range of the venue's fills, in chain order, whatever the batches were, and a process that
// resumes mid-bucket appends to what an earlier one wrote; on a folded demo both kinds of list name every fill.
import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFillLists, FILL_BUCKET, fillEntriesNewestFirst } from '../../engine/state/createFillLists.js';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { openStateStore, putStateWrite } from '../../engine/state/openStateStore.js';
import { createStateReader, type StoredFill } from '../../engine/state/stateReader.js';
import { fillListKey } from '../../engine/state/stateKeys.js';
import type { StateWrite } from '../../engine/state/stateWrite.js';
import { createDemoData } from '../fixtures/demoData.js';
import { decodeTradeRow, encodeTradeRow, FEE_UNIT, ROLE, SIDE, type TradeRow } from '../../engine/state/tradeRow.js';

const WALLET = '0x' + 'ab'.repeat(20);
const MARKET = '0x' + 'cd'.repeat(32);

t.test('behavior: a trade row round-trips through its stored form', async (t) => {
  const row: TradeRow = {
    logIndex: 70_001, tx: '0x' + 'ef'.repeat(32), wallet: WALLET, side: SIDE.sell, token: '01'.repeat(32), outcomeIndex: 1,
    shares: 2 ** 53 - 1, usd: 123_456_789, fee: -5, feeUnit: FEE_UNIT.shares, role: ROLE.taker, counterparty: '0x' + '00'.repeat(20),
    exchange: 4,
  };
  // Ids of a small dictionary: the row stores numbers, decoding asks for their texts.
  const dictionary: Record<string, string> = {
    [`${ID_SPACE.address}:7`]: WALLET, [`${ID_SPACE.address}:0`]: row.counterparty, [`${ID_SPACE.token}:70000`]: row.token,
    [`${ID_SPACE.condition}:3`]: MARKET,
  };
  const text = (space: number, id: number) => dictionary[`${space}:${id}`] ?? t.fail(`no id ${space}:${id}`) as never;
  const ids = { wallet: 7, counterparty: 0, token: 70_000, marketSpace: ID_SPACE.condition, market: 3 };
  const stored = encodeTradeRow(row, 1_700_000_000, ids);
  t.equal(stored.length, 88, '88 bytes');
  t.same(decodeTradeRow(stored, text), { ts: 1_700_000_000, market: MARKET, row });
  const unknown = { ...row, outcomeIndex: -1 };
  t.same(
    decodeTradeRow(encodeTradeRow(unknown, 1, { ...ids, marketSpace: ID_SPACE.token, market: 70_000 }), text),
    { ts: 1, market: row.token, row: unknown },
    'a market that is a token id',
  );
  t.throws(() => encodeTradeRow({ ...row, tx: '0x12' }, 1, ids), /is not 32 bytes of hex/);
});

/** Folds `fills` fills of one wallet through fresh lists in batches of `batch`, writing each batch's lists. */
async function foldLists(dir: string, fills: number, batch: number, from = 0): Promise<void> {
  const store = openStateStore({ dir });
  // The fills the state holds: a resumed process reads only their buckets back.
  const lists = createFillLists(store, from);
  const write = (writes: StateWrite[]) => store.env.transactionSync(() => {
    for (const { db, key, value } of writes) putStateWrite(store, db, key, value);
  });
  for (let fill = from; fill < fills; fill++) {
    lists.add('walletFills', WALLET, fill, 1000 + fill, fill % 7);
    if ((fill + 1) % batch === 0) write(lists.takeWrites());
  }
  write(lists.takeWrites());
  await store.close();
}

async function bucketsOf(dir: string): Promise<Array<[string, Buffer]>> {
  const store = openStateStore({ dir, readOnly: true });
  const found = [...store.dbs.walletFills.getRange({})].map(({ key, value }) => [(key as Buffer).toString('latin1'), Buffer.from(value)] as [string, Buffer]);
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
  t.same(reference.map(([key]) => key), [fillListKey(WALLET, 0), fillListKey(WALLET, 1)], 'one key per bucket');
  const entries = [...fillEntriesNewestFirst(reference[1]![1])];
  t.equal(entries.length, 100);
  t.same(entries[0], { block: 1000 + fills - 1, logIndex: (fills - 1) % 7 }, 'newest first');
  t.same(entries.at(-1), { block: 1000 + FILL_BUCKET, logIndex: FILL_BUCKET % 7 }, 'the bucket starts at its first fill');
  t.same(await bucketsOf(dirs[1]!), reference, 'batches of 333');
  t.same(await bucketsOf(dirs[2]!), reference, 'a second process resuming mid-bucket');
});

t.test('behavior: on a folded demo, wallet lists and market lists name the same fills, all of them', async (t) => {
  const { data } = await createDemoData(2_000, 5);
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
  t.equal(foreign, 0, 'a wallet\'s list holds its own fills only');
  t.ok(byWallet.size > 1_000, `${byWallet.size} fills listed`);
  t.equal(byWallet.size, state.cursor().fills, 'every fill of the table is on its wallet\'s list, once');
  t.same([...byMarket].sort(), [...byWallet].sort(), 'and on its market\'s list');
});

t.test('behavior: a bucket read before a fill starts right below it', async (t) => {
  const value = Buffer.alloc(5 * 8);
  const entries = [[10, 1], [10, 4], [11, 0], [12, 2], [12, 3]];
  entries.forEach(([block, logIndex], i) => {
    value.writeUInt32BE(block!, i * 8);
    value.writeUInt32BE(logIndex!, i * 8 + 4);
  });
  const read = (before: { block: number; logIndex: number } | null) => [...fillEntriesNewestFirst(value, before)].map((e) => `${e.block}:${e.logIndex}`);
  t.same(read(null), ['12:3', '12:2', '11:0', '10:4', '10:1']);
  t.same(read({ block: 12, logIndex: 3 }), ['12:2', '11:0', '10:4', '10:1'], 'an entry itself is not before itself');
  t.same(read({ block: 11, logIndex: 7 }), ['11:0', '10:4', '10:1'], 'a position between entries');
  t.same(read({ block: 10, logIndex: 1 }), [], 'nothing before the first');
  t.same(read({ block: 99, logIndex: 0 }), read(null), 'everything before a later fill');
});
