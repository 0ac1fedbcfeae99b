// What market metadata keeps for the venue's Data API shapes (docs/venue-api.md): the end date, an icon other than
// the image and the event's Gamma id when the object has them, and no key at all when it has none, so metadata
// without them is stored as before.
import t from 'tap';
import { parseMarketMetadata } from '../../engine/offchain/marketMetadata.js';

const CONDITION = '0x' + 'ab'.repeat(32);

t.test('default: endDate, icon and the event id are kept when the object has them', async (t) => {
  const parsed = parseMarketMetadata({
    conditionId: CONDITION,
    question: 'Will it rain?',
    endDate: '2026-12-31T12:00:00Z',
    image: 'https://example.test/image.png',
    icon: 'https://example.test/icon.png',
    events: [{ id: '90210', slug: 'rain', title: 'Rain' }],
  })!;
  t.equal(parsed.endDate, '2026-12-31T12:00:00Z');
  t.equal(parsed.icon, 'https://example.test/icon.png');
  t.equal(parsed.eventId, 90210);
  t.equal(
    parseMarketMetadata({ conditionId: CONDITION, end_date_iso: '2026-11-30' })!.endDate,
    '2026-11-30',
    'CLOB form',
  );
});

t.test('behavior: none of them, no key; an icon that is the image, none', async (t) => {
  const plain = parseMarketMetadata({ conditionId: CONDITION, question: 'Will it rain?' })!;
  for (const key of ['endDate', 'icon', 'eventId']) t.notOk(key in plain, `${key}: no key`);
  const same = parseMarketMetadata({
    conditionId: CONDITION,
    image: 'https://x.test/a.png',
    icon: 'https://x.test/a.png',
  })!;
  t.notOk('icon' in same, 'the image already says it');
  t.equal(same.image, 'https://x.test/a.png');
  const odd = parseMarketMetadata({ conditionId: CONDITION, events: [{ id: 'not a number' }, { id: '7' }] })!;
  t.notOk('eventId' in odd, "the first event's id, when it is one");
});
