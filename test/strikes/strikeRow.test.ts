// Crypto strikes against a hand-built feed series: the strike and close are the last answers updated at or before
// the round's start and end (an answer at the very second counts, one a second later does not), a round not yet
// ended has no close, a close equal to the strike is Up; rounds are recognised from their slugs.
import t from 'tap';
import { roundMarket } from '../../engine/offchain/roundMarkets.js';
import { parseMarketMetadata, type MarketMetadata } from '../../engine/offchain/marketMetadata.js';
import { createMarketRecord, type FeedAnswer } from '../../engine/state/marketRecords.js';
import { encodeAbiParameters, keccak256, parseAbiParameters } from 'viem';
import { roundQuestionId } from '../../engine/chain/roundQuestionId.js';
import { strikeRow } from '../../api/strikes/strikeRow.js';

const FEED = '0x' + 'fe'.repeat(20);
const START = 1_767_200_400;
// Updated at: 100 s before the start, at the start, 1 s after it; at the end, 1 s after it.
const series: FeedAnswer[] = [
  [START - 100, 9_000_000_000_000],
  [START, 9_500_000_000_000],
  [START + 1, 9_100_000_000_000],
  [START + 900, 9_500_000_000_000],
  [START + 901, 8_000_000_000_000],
].map(([updatedAt, answer]) => ({
  asset: 'BTC',
  feed: FEED,
  answer: answer!,
  roundId: String(updatedAt),
  updatedAt: updatedAt!,
  block: 1,
}));
const answerAt = (ts: number) => series.filter((a) => a.updatedAt <= ts).at(-1) ?? null;

function metadata(slug: string | null): MarketMetadata {
  return {
    conditionId: '0x' + '2e'.repeat(32),
    question: 'Bitcoin Up or Down',
    slug,
    eventSlug: slug,
    image: null,
    category: 'Crypto',
    outcomes: ['Up', 'Down'],
    negRisk: false,
    tokenIds: null,
  };
}

t.test("default: rounds from the venue's slugs", async (t) => {
  t.same(roundMarket(metadata('btc-updown-15m-1767200400')), {
    conditionId: '0x' + '2e'.repeat(32),
    eventSlug: 'btc-updown-15m-1767200400',
    asset: 'BTC',
    interval: '15m',
    startTs: START,
    endTs: START + 900,
    priceToBeat: null,
  });
  t.match(roundMarket(metadata('eth-updown-1h-1767200400')), { asset: 'ETH', interval: '1h', endTs: START + 3600 });
  t.match(roundMarket(metadata('sol-updown-4h-1767200400')), { asset: 'SOL', endTs: START + 4 * 3600 });
  for (const slug of [
    null,
    'bitcoin-up-or-down-december-31',
    'btc-updown-15m-soon',
    'will-btc-updown-15m-1767200400-happen',
  ]) {
    t.equal(roundMarket(metadata(slug)), null, `${slug}: not a round`);
  }
});

t.test('default: strike and close at or before the start and end; equal is Up', async (t) => {
  const round = roundMarket(metadata('btc-updown-15m-1767200400'))!;
  const market = createMarketRecord(round.conditionId);
  market.payoutNumerators = [1, 0];
  market.payoutDenominator = 1;
  t.same(strikeRow(round, market, START + 2000, answerAt), {
    conditionId: round.conditionId,
    eventSlug: round.eventSlug,
    asset: 'BTC',
    interval: '15m',
    startTs: START,
    endTs: START + 900,
    // The answer at the start's second, not the one a second later; the close at the end's second likewise.
    strike: 95_000,
    close: 95_000,
    outcome: 'Up',
    resolution: 'Up',
    feed: FEED,
    source: 'feed',
  });
});

t.test(
  'behavior: before the end no close; before any answer no strike; a split or missing resolution is null',
  async (t) => {
    const round = roundMarket(metadata('btc-updown-15m-1767200400'))!;
    t.match(strikeRow(round, null, START + 899, answerAt), {
      strike: 95_000,
      close: null,
      outcome: null,
      resolution: null,
    });
    const early = roundMarket(metadata(`btc-updown-15m-${START - 1000}`))!;
    t.match(strikeRow(early, null, START + 2000, answerAt), { strike: null, close: 90_000, outcome: null, feed: FEED });
    const later = roundMarket(metadata(`btc-updown-15m-${START + 1}`))!;
    t.match(strikeRow(later, null, START + 2000, answerAt), { strike: 91_000, close: 80_000, outcome: 'Down' });
    const split = createMarketRecord(round.conditionId);
    split.payoutNumerators = [1, 1];
    split.payoutDenominator = 2;
    t.equal(strikeRow(round, split, START + 2000, answerAt).resolution, null);
  },
);

t.test('behavior: a reported round gives exactly the reported prices, and names its source', async (t) => {
  const round = roundMarket(metadata('btc-updown-15m-1767200400'))!;
  const word = (usd: bigint) => BigInt.asUintN(256, usd).toString(16).padStart(64, '0');
  const report = {
    questionId: roundQuestionId(round),
    requestId: '0x' + '11'.repeat(29),
    startPrice: word(94_123_456_789_000_000_000_000n),
    endPrice: word(94_000_000_000_000_000_000_000n),
    payout: 0,
    block: 1,
  };
  t.match(strikeRow(round, null, START + 10_000, answerAt, report), {
    strike: 94_123.456789,
    close: 94_000,
    outcome: 'Down',
    feed: null,
    source: 'reporter',
  });
  t.match(
    strikeRow(round, null, START + 10_000, answerAt, null),
    { strike: 95_000, source: 'feed' },
    'no report: feed',
  );
  // The module's question id: keccak256(abi.encode("CHAINLINK_CANDLE", keccak256("BTC/USD"), 900, start)).
  t.equal(
    roundQuestionId(round),
    keccak256(
      encodeAbiParameters(parseAbiParameters('bytes32, bytes32, uint256, uint256'), [
        ('0x' + Buffer.from('CHAINLINK_CANDLE').toString('hex').padEnd(64, '0')) as `0x${string}`,
        keccak256(Buffer.from('BTC/USD')),
        900n,
        BigInt(START),
      ]),
    ),
  );
});

t.test(
  'behavior: a legacy round whose market object carries its strike names the metadata; the close from the feed',
  async (t) => {
    const round = roundMarket({ ...metadata('btc-updown-15m-1767200400'), priceToBeat: 94_500.25 })!;
    t.equal(round.priceToBeat, 94_500.25);
    const row = strikeRow(round, null, START + 10_000, answerAt);
    t.match(row, { strike: 94_500.25, close: 95_000, outcome: 'Up', feed: FEED, source: 'metadata' });
    t.notOk('priceToBeat' in row, 'the strike is shown once, as strike');
    t.match(strikeRow(round, null, START + 100, answerAt), { strike: 94_500.25, close: null, outcome: null });
    // A report wins over the metadata: it is what resolved the market.
    const word = (usd: bigint) => usd.toString(16).padStart(64, '0');
    const report = {
      questionId: roundQuestionId(round),
      requestId: '0x' + '22'.repeat(29),
      startPrice: word(94_000_000_000_000_000_000_000n),
      endPrice: word(93_000_000_000_000_000_000_000n),
      payout: 0,
      block: 1,
    };
    t.match(strikeRow(round, null, START + 10_000, answerAt, report), { strike: 94_000, source: 'reporter' });
  },
);

t.test('parse: eventMetadata.priceToBeat of the market object or of its event, as a number or a string', async (t) => {
  const base = { conditionId: '0x' + '2e'.repeat(32), slug: 'btc-updown-15m-1767200400' };
  t.equal(parseMarketMetadata({ ...base, eventMetadata: { priceToBeat: 94_500.25 } })!.priceToBeat, 94_500.25);
  t.equal(parseMarketMetadata({ ...base, events: [{ eventMetadata: { priceToBeat: '101.5' } }] })!.priceToBeat, 101.5);
  t.equal(parseMarketMetadata({ ...base, eventMetadata: { priceToBeat: 'n/a' } })!.priceToBeat, null);
  t.equal(parseMarketMetadata(base)!.priceToBeat, null);
});
