// engine/state/decodedOnChange.ts: a value asked for by every request is decoded again only when its stored bytes
// changed, and a buffer the store reuses cannot change it behind the caller's back.
import t from 'tap';
import { decodedOnChange } from '../../engine/state/decodedOnChange.js';

t.test('unit: decoded once per distinct bytes; absent decodes to the default', (t) => {
  let stored: Buffer | undefined;
  let decodes = 0;
  const read = decodedOnChange(
    () => stored,
    (bytes) => {
      decodes++;
      return { n: bytes.readUInt8(0) };
    },
    null as { n: number } | null,
  );
  t.equal(read(), null, 'nothing stored: the default');
  stored = Buffer.from([1]);
  const first = read();
  t.same(first, { n: 1 });
  t.equal(read(), first, 'the same bytes: the same value, not decoded again');
  t.equal(decodes, 1);
  // The store hands out one buffer it rewrites: the last bytes were copied, so the change is seen.
  stored[0] = 2;
  t.same(read(), { n: 2 }, 'bytes rewritten in place are a change');
  t.equal(decodes, 2);
  stored = undefined;
  t.equal(read(), null, 'deleted: the default again');
  t.end();
});
