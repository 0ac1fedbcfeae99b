// A state that holds `rows` fills of `markets` markets in one week, for the fills-feed benchmark: written through
// the engine's own state writers (ids, block fills, fill lists, block records, cursor, layout), so the feed reads
// it exactly as it reads a folded venue. The demo venue spreads its fills over 45 days, and folding one with two
// million fills in a single week would take the benchmark longer than the feed it measures. Deterministic.
import { mkdirSync } from 'node:fs';
import { DEFAULT_FOLD_OPTIONS } from '../engine/foldOptions.js';
import { ID_SPACE } from '../engine/log/idDictionary.js';
import { createBlockWrites } from '../engine/state/blockWrites.js';
import { createFillLists } from '../engine/state/createFillLists.js';
import { createStateIds } from '../engine/state/createStateIds.js';
import { IdDictionary } from '../engine/log/idDictionary.js';
import { CURSOR_KEY, encodeBlockRecord, type FoldCursor } from '../engine/state/foldCursor.js';
import { openStateStore, putStateWrite } from '../engine/state/openStateStore.js';
import { encodeValue } from '../engine/state/stateCodec.js';
import { blockFillsKey, blockRecordKey } from '../engine/state/stateKeys.js';
import { prepareStateLayout } from '../engine/state/stateLayout.js';
import { encodeBlockFills, FEE_UNIT, ROLE, SIDE, type BlockFill } from '../engine/state/tradeRow.js';
import { createRandom, hex } from './seededRandom.js';

export const WEEK_START_TS = 1_800_000_000;
const FIRST_BLOCK = 90_000_000;
const BLOCK_SECONDS = 2;
const WALLETS = 20_000;
const COMMIT_FILLS = 100_000;

/**
 * Writes the state into `dir` (empty) and returns the markets' condition ids. `fillStride` > 1 numbers the rows as
 * every so many fills of a venue whose other fills are not stored, so that a few rows span many buckets (tests).
 */
export async function writeFillsState(
  dir: string,
  rows: number,
  marketCount: number,
  fillStride = 1,
): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const store = openStateStore({ dir });
  prepareStateLayout(store, DEFAULT_FOLD_OPTIONS);
  const random = createRandom(7);
  const markets = Array.from({ length: marketCount }, () => '0x' + hex(random, 64));
  const tokens = markets.map(() => [hex(random, 64), hex(random, 64)] as const);
  const wallets = Array.from({ length: WALLETS }, () => '0x' + hex(random, 40));
  const ids = createStateIds(store, [0, 0, 0], new IdDictionary());
  const lists = createFillLists(store, 0);
  const blocks = (7 * 86_400) / BLOCK_SECONDS;
  const perBlock = rows / blocks;
  let fill = 0;
  let block = FIRST_BLOCK;
  let carry = 0;
  let checksum = '0'.repeat(64);
  while (fill < rows) {
    const writes = createBlockWrites();
    const puts: Array<[db: 'fills' | 'blocks', key: string, value: Buffer]> = [];
    const target = Math.min(rows, fill + COMMIT_FILLS);
    while (fill < target) {
      carry += perBlock;
      const count = Math.min(Math.floor(carry), target - fill);
      carry -= count;
      const ts = WEEK_START_TS + (block - FIRST_BLOCK) * BLOCK_SECONDS;
      const blockFills: BlockFill[] = [];
      let tx = '';
      for (let logIndex = 0; logIndex < count; logIndex++, fill++) {
        // A match: the taker's fill and two makers' fills in one transaction.
        if (logIndex % 3 === 0) tx = '0x' + hex(random, 64);
        // Busier markets first: a square of a uniform number leans to the low indexes.
        const m = Math.floor(random() ** 2 * marketCount);
        const outcome = random() < 0.5 ? 0 : 1;
        const shares = 1_000_000 + Math.floor(random() * 500_000_000);
        const usd = Math.floor(shares * (0.05 + random() * 0.9));
        const exchange = 1 + Math.floor(random() * 4);
        const side = random() < 0.5 ? SIDE.buy : SIDE.sell;
        const row = {
          logIndex,
          tx,
          wallet: wallets[Math.floor(random() * WALLETS)]!,
          side,
          token: tokens[m]![outcome]!,
          outcomeIndex: outcome,
          shares,
          usd,
          fee: Math.floor(usd / 500),
          feeUnit: exchange <= 2 && side === SIDE.buy ? FEE_UNIT.shares : FEE_UNIT.usd,
          role: logIndex % 3 === 0 ? ROLE.taker : ROLE.maker,
          counterparty: wallets[Math.floor(random() * WALLETS)]!,
          exchange,
        };
        const wallet = ids.id(ID_SPACE.address, row.wallet, writes);
        const counterparty = ids.id(ID_SPACE.address, row.counterparty, writes);
        const token = ids.id(ID_SPACE.token, row.token, writes);
        const market = ids.id(ID_SPACE.condition, markets[m]!, writes);
        blockFills.push({ row, ids: { wallet, counterparty, token, marketSpace: ID_SPACE.condition, market } });
        lists.add('walletFills', 0, wallet, fill * fillStride, block, logIndex);
        lists.add('marketFills', ID_SPACE.condition, market, fill * fillStride, block, logIndex);
      }
      if (count > 0) puts.push(['fills', blockFillsKey(block), encodeBlockFills(ts, blockFills)]);
      checksum = hex(random, 64);
      puts.push([
        'blocks',
        blockRecordKey(block),
        encodeBlockRecord({ block, ts, hash: '0x' + hex(random, 64), checksum, events: count }),
      ]);
      block++;
    }
    const cursor: FoldCursor = {
      block: block - 1,
      checksum,
      events: fill,
      blocks: block - FIRST_BLOCK,
      fills: fill * fillStride,
      ids: ids.counts(),
    };
    await store.env.batch(() => {
      for (const [db, key, value] of puts) putStateWrite(store, db, key, value);
      for (const { db, key, value } of [...writes.finish(), ...lists.takeWrites()])
        putStateWrite(store, db, key, value);
      store.dbs.meta.put(CURSOR_KEY, encodeValue(cursor));
    });
  }
  await store.close();
  return markets;
}
