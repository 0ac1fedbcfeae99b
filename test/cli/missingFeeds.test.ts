// A capture ingest cannot find the feed proxies' aggregators (docs/design.md 6): when the metadata lists Up/Down rounds
// of an asset no price feed is known for, ingest says how to supply them; once one is named, it says nothing.
import t from 'tap';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KIND } from '../../engine/chain/chainEvent.js';
import { POLYGON_ADDRESSES as A } from '../../engine/chain/venueAddresses.js';
import { createEventCapture } from '../fixtures/eventCapture.js';
import { runTally } from '../fixtures/runTally.js';

const dir = mkdtempSync(join(tmpdir(), 'tally-feeds-'));
const CONDITION = '0x' + '7e'.repeat(32);
const capture = createEventCapture();
capture.add(100, 1_780_000_000, 'prepare', A.ctf, {
  kind: KIND.conditionPreparation,
  conditionId: CONDITION,
  oracle: '0x' + '65'.repeat(20),
  questionId: '0x' + '01'.repeat(32),
  outcomeSlotCount: 2,
});
const capturePath = capture.write(join(dir, 'capture.ndjson'));
const metadata = join(dir, 'markets.json');
writeFileSync(
  metadata,
  JSON.stringify([{ conditionId: CONDITION, slug: 'btc-updown-15m-1780000200', question: 'BTC' }]),
);

function ingest(name: string, config: object | null) {
  const data = join(dir, name);
  mkdirSync(data);
  if (config) writeFileSync(join(data, 'config.json'), JSON.stringify(config));
  return runTally(['ingest', '--data', data, '--capture', capturePath, '--metadata', metadata]);
}

t.test('behavior: rounds of an asset with no known feed: ingest says how to supply one', async (t) => {
  const result = ingest('none', null);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stderr, /ingest: no price feed is known for BTC, whose Up\/Down rounds the metadata lists/);
  t.match(result.stderr, /tally ingest --rpc URL/);
});

t.test('default: a feed named for the asset: nothing said', async (t) => {
  const result = ingest('named', { addresses: { priceFeeds: { ['0x' + 'fe'.repeat(20)]: 'BTC' } } });
  t.equal(result.code, 0, result.stderr);
  t.notMatch(result.stderr, /no price feed is known/);
});
