// The market search's text index (api/search/marketTextIndex.ts) over a real off-chain store: every word must be
// in one market's line (question, slug, event slug, any letter case), lines never run into each other, the cap
// says there were more, and a metadata load (a new revision) is seen.
import t from 'tap';
import { join } from 'node:path';
import { storeMetadata } from '../../cli/commands/metadataCommand.js';
import type { MarketMetadata } from '../../engine/offchain/marketMetadata.js';
import { openOffchainStore, readOffchainRevision } from '../../engine/offchain/openOffchainStore.js';
import { createMarketTextIndex, searchWords } from '../../api/search/marketTextIndex.js';
import { processTempDir } from '../fixtures/processTempDir.js';

const market = (n: number, question: string | null, slug: string | null, eventSlug: string | null): MarketMetadata => ({
  conditionId: `0x${n.toString(16).padStart(64, '0')}`,
  question,
  slug,
  eventSlug,
  image: null,
  category: null,
  outcomes: ['Yes', 'No'],
  negRisk: false,
  tokenIds: null,
});

const offchain = openOffchainStore({ dir: join(processTempDir('tally-search-'), 'offchain') });
t.teardown(() => offchain.close());
await storeMetadata(
  offchain,
  [
    market(1, 'Will Bitcoin reach $100k by December?', 'bitcoin-100k-december', 'bitcoin-price'),
    market(2, 'Will Ethereum reach $5k?', 'eth-5k', 'crypto-prices'),
    market(3, 'Bitcoin Up or Down', 'btc-updown-15m-1793000000', null),
    market(4, null, null, null),
    market(5, 'Will it rain in Paris?\nTomorrow', 'paris-rain', 'weather'),
  ],
  'test',
);
const index = createMarketTextIndex(offchain);
const ids = (n: number[]) => n.map((i) => `0x${i.toString(16).padStart(64, '0')}`);
const find = (words: string[], max = 10) => index.find(readOffchainRevision(offchain), words, max);

t.test('default: every word in one line, in metadata order', async (t) => {
  t.same(find(['bitcoin']), { ids: ids([1, 3]), more: false }, 'question or slug');
  t.same(find(['bitcoin', 'december']), { ids: ids([1]), more: false }, 'every word');
  t.same(find(['crypto-prices']), { ids: ids([2]), more: false }, 'the event slug');
  t.same(find(['reach', '5k']), { ids: ids([2]), more: false });
  t.same(find(['tomorrow', 'paris']), { ids: ids([5]), more: false }, 'a question with a line break is one line');
  t.same(find(['weather']), { ids: ids([5]), more: false }, 'the last line');
  t.same(find(['will']), { ids: ids([1, 2, 5]), more: false });
});

t.test('behavior: words never match across two markets; the cap says there were more', async (t) => {
  t.same(find(['december', 'ethereum']), { ids: [], more: false }, 'words of two lines');
  t.same(find(['price ', 'will']), { ids: [], more: false }, "a line's end is not a space");
  t.same(find(['will'], 2), { ids: ids([1, 2]), more: true });
  t.same(find(['will'], 3), { ids: ids([1, 2, 5]), more: false });
});

t.test(
  'behavior: curly quotes read straight, other characters past Latin-1 as spaces, in markets and words',
  async (t) => {
    await storeMetadata(offchain, [market(7, 'Will “Dune” gross $1B? Café Über 日本', 'dune-1b', null)], 'test');
    const revision = readOffchainRevision(offchain);
    for (const q of ['"dune"', '“Dune”', 'CAFÉ über', 'über 日本 dune']) {
      t.same(index.find(revision, searchWords(q), 10).ids, ids([7]), q);
    }
    t.same(searchWords('‘a’  “b” 日本x'), ["'a'", '"b"', 'x']);
    t.same(searchWords('日本'), [], 'nothing left to find');
  },
);

t.test('behavior: a metadata load is seen at the next revision', async (t) => {
  t.same(find(['solana']).ids, []);
  await storeMetadata(offchain, [market(6, 'Will Solana flip Ethereum?', 'sol-flip', 'solana')], 'test');
  t.same(find(['solana']).ids, ids([6]));
});
