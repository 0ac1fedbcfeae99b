// A state shaped like a 10-million-fill venue for the board benchmark, written through the engine's own state
// writers (ids, positions, tokens, markets with marks, a block record, the cursor) and market metadata with
// categories: 300,000 wallets over 45,000 markets (the 10M demo's counts), each wallet in 1 to 25 markets (a
// skewed draw), plus one wallet in 10,000 markets (the stats target's). Positions carry consistent figures
// (buys, some sells, redemptions once resolved), not a simulated history: the rollup's cost is per position and
// per market result, whatever the history behind them. Folding the 10M demo itself would take the benchmark an
// hour (bench:fold). Deterministic.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FOLD_OPTIONS } from '../engine/foldOptions.js';
import { ID_SPACE } from '../engine/log/idDictionary.js';
import { CATEGORIES, type MarketMetadata } from '../engine/offchain/marketMetadata.js';
import { openOffchainStore } from '../engine/offchain/openOffchainStore.js';
import { writeOffchain } from '../engine/offchain/offchainWrites.js';
import { createPosition, FLAG, OPEN_THRESHOLD_MICROS } from '../engine/reducers/position.js';
import { createBlockWrites } from '../engine/state/blockWrites.js';
import { createStateIds } from '../engine/state/createStateIds.js';
import { IdDictionary } from '../engine/log/idDictionary.js';
import { CURSOR_KEY, encodeBlockRecord, type FoldCursor } from '../engine/state/foldCursor.js';
import { createMarketRecord, marketIdentity, marketMarks } from '../engine/state/marketRecords.js';
import { openStateStore, putStateWrite } from '../engine/state/openStateStore.js';
import { encodePosition, encodeValue } from '../engine/state/stateCodec.js';
import { blockRecordKey, positionKey } from '../engine/state/stateKeys.js';
import { prepareStateLayout } from '../engine/state/stateLayout.js';
import { createRandom, hex } from './seededRandom.js';

export const BOARD_NOW = 1_800_000_000;
const BLOCK = 100_000_000;
const DAY = 86_400;
const HISTORY_DAYS = 45;
const WHALE_MARKETS = 10_000;
const PUTS_PER_BATCH = 200_000;
const U = 1_000_000;

/** Writes the state and metadata into `data` (empty); returns the wallet in 10,000 markets. */
export async function writeBoardState(
  data: string,
  wallets = 300_000,
  marketCount = 45_000,
): Promise<{ whale: string; positions: number }> {
  mkdirSync(data, { recursive: true });
  const store = openStateStore({ dir: join(data, 'state') });
  prepareStateLayout(store, DEFAULT_FOLD_OPTIONS);
  const offchain = openOffchainStore({ dir: join(data, 'offchain') });
  const random = createRandom(11);
  const ids = createStateIds(store, [0, 0, 0], new IdDictionary());
  let writes = createBlockWrites();
  let puts: Array<[db: 'positions' | 'tokens' | 'markets' | 'marketMarks', key: string, value: Buffer]> = [];
  const flush = async () => {
    const batch = [...puts, ...writes.finish().map(({ db, key, value }) => [db, key, value] as const)];
    puts = [];
    writes = createBlockWrites();
    await store.env.batch(() => {
      for (const [db, key, value] of batch) putStateWrite(store, db, key, value);
    });
  };

  const metadataPuts: Array<[conditionId: string, value: Buffer]> = [];
  const markets = Array.from({ length: marketCount }, (_, i) => {
    const conditionId = '0x' + hex(random, 64);
    const tokens = [hex(random, 64), hex(random, 64)];
    const record = createMarketRecord(conditionId);
    record.tokens = tokens;
    record.preparedAt = BOARD_NOW - HISTORY_DAYS * DAY;
    if (random() < 0.4) {
      const yes = random() < 0.5;
      record.payoutNumerators = yes ? [1, 0] : [0, 1];
      record.payoutDenominator = 1;
      record.resolvedAt = BOARD_NOW - Math.floor(random() * HISTORY_DAYS * DAY);
    }
    record.marks = [0, 1].map(() => ({
      usd: Math.floor(random() * 1000),
      shares: 1000,
      ts: BOARD_NOW - Math.floor(random() * DAY),
    }));
    ids.id(ID_SPACE.condition, conditionId, writes);
    const tokenIds = tokens.map((token) => ids.id(ID_SPACE.token, token, writes));
    tokens.forEach((token, outcomeIndex) => puts.push(['tokens', token, encodeValue({ conditionId, outcomeIndex })]));
    puts.push(
      ['markets', conditionId, encodeValue(marketIdentity(record))],
      ['marketMarks', conditionId, encodeValue(marketMarks(record))],
    );
    const category = i % 10 === 9 ? null : CATEGORIES[i % 9]!;
    const metadata: MarketMetadata = {
      conditionId,
      question: `Market ${i}?`,
      slug: `market-${i}`,
      eventSlug: `event-${Math.floor(i / 3)}`,
      image: null,
      category,
      outcomes: ['Yes', 'No'],
      negRisk: false,
      tokenIds: null,
    };
    metadataPuts.push([conditionId, encodeValue(metadata)]);
    return { record, tokenIds };
  });
  await writeOffchain(offchain, (offchainWrites) => {
    for (const [conditionId, bytes] of metadataPuts) offchainWrites.put('metadata', conditionId, bytes);
  });
  await flush();

  let positions = 0;
  const whale = '0x' + 'f'.repeat(40);
  for (let w = 0; w < wallets; w++) {
    const wallet = w === 0 ? whale : '0x' + hex(random, 40);
    const walletId = ids.id(ID_SPACE.address, wallet, writes);
    const count = w === 0 ? Math.min(WHALE_MARKETS, marketCount) : 1 + Math.floor(random() ** 3 * 25);
    const chosen = new Set<number>();
    // The whale draws evenly (it needs 10,000 distinct markets); the others lean to the busy low indexes.
    while (chosen.size < count) chosen.add(Math.floor((w === 0 ? random() : random() ** 1.5) * marketCount));
    for (const m of chosen) {
      const { record, tokenIds } = markets[m]!;
      const outcomes = random() < 0.3 ? [0, 1] : [random() < 0.5 ? 0 : 1];
      for (const outcome of outcomes) {
        puts.push([
          'positions',
          positionKey(walletId, tokenIds[outcome]!),
          encodePosition(syntheticPosition(random, record.payoutNumerators?.[outcome] ?? null)),
        ]);
        positions++;
      }
    }
    if (puts.length >= PUTS_PER_BATCH) await flush();
  }
  const ts = BOARD_NOW;
  const cursor: FoldCursor = {
    block: BLOCK,
    checksum: '0'.repeat(64),
    events: positions,
    blocks: 1,
    fills: 0,
    ids: ids.counts(),
  };
  await flush();
  await store.env.batch(() => {
    putStateWrite(
      store,
      'blocks',
      blockRecordKey(BLOCK),
      encodeBlockRecord({
        block: BLOCK,
        ts,
        hash: '0x' + '0'.repeat(64),
        checksum: cursor.checksum,
        events: positions,
      }),
    );
    store.dbs.meta.put(CURSOR_KEY, encodeValue(cursor));
  });
  await store.close();
  await offchain.close();
  return { whale, positions };
}

/** Bought at a price, maybe partly sold, redeemed when its market resolved (payout 0 or 1, null while open). */
function syntheticPosition(random: () => number, payout: number | null) {
  const p = createPosition();
  const bought = Math.floor((1 + random() * 5000) * U);
  const price = 0.05 + random() * 0.9;
  p.boughtShares = bought;
  p.boughtUsd = Math.floor(bought * price);
  p.fees = Math.floor(p.boughtUsd / 1000);
  p.costBasis = p.boughtUsd + p.fees;
  p.shares = bought;
  p.fills = 1 + Math.floor(random() * 20);
  p.firstTradeAt = BOARD_NOW - Math.floor(random() * HISTORY_DAYS * DAY);
  p.lastTradeAt = p.firstTradeAt + Math.floor(random() * (BOARD_NOW - p.firstTradeAt));
  if (random() < 0.5) {
    const sold = Math.floor(p.shares * random());
    const basis = Math.round((p.costBasis * sold) / p.shares);
    p.soldShares = sold;
    p.soldUsd = Math.floor(sold * (0.05 + random() * 0.9));
    p.realizedPnl += p.soldUsd - basis;
    p.shares -= sold;
    p.costBasis -= basis;
  }
  if (payout !== null && random() < 0.6) {
    p.redeemedShares = p.shares;
    p.redeemUsd = p.shares * payout;
    p.realizedPnl += p.redeemUsd - p.costBasis;
    p.redemptions = 1;
    p.shares = 0;
    p.costBasis = 0;
  }
  if (random() < 0.05) p.flags |= FLAG.basisApprox;
  p.lowSinceTs = p.shares < OPEN_THRESHOLD_MICROS ? p.lastTradeAt : 0;
  return p;
}
