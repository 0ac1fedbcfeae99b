// The hand-off's sort: entries taken token first come out wallet first, from one run in memory or from many runs
// written to files and merged, equal to a plain sort of them all.
import t from 'tap';
import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import { createRunCollector, mergeRunFiles, writeRunFile, type RunEntry } from '../../engine/fold/walletFirstRuns.js';
import { processTempDir } from '../fixtures/processTempDir.js';

let seed = 12345;
const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;

/** Distinct (token, wallet) pairs in the working table's order, each with a value naming it. */
function workingEntries(count: number): RunEntry[] {
  const pairs = new Map<string, RunEntry>();
  while (pairs.size < count) {
    const token = random(300);
    const wallet = random(5_000);
    const value = Buffer.from(`${wallet}:${token}:${'x'.repeat(random(40))}`);
    pairs.set(`${token}:${wallet}`, { wallet, token, value });
  }
  return [...pairs.values()].sort((a, b) => a.token - b.token || a.wallet - b.wallet);
}

/** The merged entries, each value copied as it is taken (it is a view of a read buffer until the next). */
function readAll(paths: string[]): RunEntry[] {
  const entries: RunEntry[] = [];
  for (const entry of mergeRunFiles(paths)) entries.push({ ...entry, value: Buffer.from(entry.value) });
  return entries;
}

const walletFirst = (entries: RunEntry[]) =>
  [...entries].sort((a, b) => a.wallet - b.wallet || a.token - b.token).map((e) => e.value.toString());

t.test('unit: one run sorts wallet first, keeping each wallet token first', async (t) => {
  const entries = workingEntries(3_000);
  const collector = createRunCollector();
  for (const { wallet, token, value } of entries) collector.add(wallet, token, value);
  t.equal(collector.count(), entries.length);
  t.equal(
    collector.bytes(),
    entries.reduce((sum, e) => sum + 12 + e.value.length, 0),
  );
  const path = join(processTempDir('tally-runs-'), 'one.bin');
  collector.writeSorted(path);
  t.same(
    readAll([path]).map((e) => e.value.toString()),
    walletFirst(entries),
  );
  t.equal(collector.count(), 0, 'the collector is empty once written');
  t.equal(collector.bytes(), 0);
});

t.test('unit: runs written to files merge into one order', async (t) => {
  const dir = processTempDir('tally-runs-');
  const entries = workingEntries(5_000);
  const collector = createRunCollector();
  const paths: string[] = [];
  // Runs cut at random sizes, the last a single entry, as the hand-off cuts them by bytes.
  let at = 0;
  while (at < entries.length) {
    const size = at + 1 === entries.length ? 1 : 1 + random(1_500);
    for (const { wallet, token, value } of entries.slice(at, at + size)) collector.add(wallet, token, value);
    at += size;
    const path = join(dir, `run-${paths.length}.bin`);
    collector.writeSorted(path);
    paths.push(path);
  }
  t.ok(paths.length > 3, `${paths.length} runs`);
  const merged = readAll(paths);
  t.same(
    merged.map((e) => e.value.toString()),
    walletFirst(entries),
  );
  t.same(
    merged.map((e) => [e.wallet, e.token]),
    [...entries].sort((a, b) => a.wallet - b.wallet || a.token - b.token).map((e) => [e.wallet, e.token]),
  );
});

t.test('unit: a value larger than the read buffer comes back whole', async (t) => {
  const dir = processTempDir('tally-runs-');
  const big = Buffer.alloc(3 * 1024 * 1024, 7);
  const path = join(dir, 'big.bin');
  const run: RunEntry[] = [
    { wallet: 1, token: 2, value: Buffer.from('a') },
    { wallet: 1, token: 3, value: big },
    { wallet: 2, token: 0, value: Buffer.from('b') },
  ];
  writeRunFile(path, run.length, (at) => run[at]!);
  const read = readAll([path]).map((e) => e.value);
  t.equal(read.length, 3);
  t.equal(read[0]!.toString(), 'a');
  t.ok(read[1]!.equals(big));
  t.equal(read[2]!.toString(), 'b');
});

t.test('unit: entries out of the working table order are refused', async (t) => {
  const collector = createRunCollector();
  collector.add(5, 2, Buffer.from('a'));
  t.throws(() => collector.add(4, 2, Buffer.from('b')), /key order/);
  t.throws(() => collector.add(9, 1, Buffer.from('c')), /key order/);
});

t.test('unit: a run file cut inside an entry is refused, not read short', async (t) => {
  const dir = processTempDir('tally-runs-');
  const run: RunEntry[] = [
    { wallet: 1, token: 2, value: Buffer.from('first') },
    { wallet: 3, token: 4, value: Buffer.from('second') },
  ];
  for (const cut of [5, 12 + 5 + 3, 12 + 5 + 12 + 2]) {
    const path = join(dir, `cut-${cut}.bin`);
    writeRunFile(path, run.length, (at) => run[at]!);
    truncateSync(path, cut);
    t.throws(() => readAll([path]), /ends inside an entry/, `cut at byte ${cut}`);
  }
});
