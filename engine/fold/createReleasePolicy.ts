// How the fold bounds its resident memory (FoldRunner.releaseMappedState). Every page the fold reads through the
// state map stays resident until the map is released, and the kernel maps a whole run of neighbouring pages on
// each fault (16 pages measured here; far more when the file sits in large page-cache folios). Random keys
// spread each commit over the whole B-tree, so the map's resident part grows with the events committed and,
// unreleased, reaches the size of the state file: 1.2 GiB of 2.4 at 10M fills.
//
// So commits are sized from the measured growth per event: at most what the budget leaves above the resident
// memory right after a release, and the map is released before a commit predicted to cross the budget, at the
// latest every `everyEvents` events. Releasing never changes the state (the map is closed and reopened between
// commits), only the memory and the time (pages are mapped in again).
import type { BlockEvents } from '../chain/chainEvent.js';

/** Events between releases at the latest. */
export const RELEASE_EVERY_EVENTS = 500_000;
/** The resident memory no commit is to take the process past (the target is a 1.5 GiB peak). */
export const RELEASE_RSS_BUDGET_BYTES = 1280 * 1024 ** 2;
/** Recent commits whose growth per event predicts the next one's. */
const GROWTH_WINDOW = 8;
/** Predictions are scaled by this: growth varies from commit to commit. */
const MARGIN = 1.5;
/** The smallest commit: below it the cost per commit would dominate. */
const MIN_CHUNK_EVENTS = 2_000;

export interface ReleasePolicy {
  /** Events the next commit may hold at most (Infinity until growth has been measured). */
  chunkEvents(): number;
  /** Before a commit of `events` events, with no commit in flight: calls `release` first when it is due. */
  beforeCommit(events: number, release: () => Promise<void>): Promise<void>;
}

/** `everyEvents` Infinity turns releases off (a server sharing the store holds the map open). */
export function createReleasePolicy(
  everyEvents = RELEASE_EVERY_EVENTS, rssBudgetBytes = RELEASE_RSS_BUDGET_BYTES, rss: () => number = process.memoryUsage.rss,
): ReleasePolicy {
  let since = 0;
  /** The reading before the last commit, and that commit's events. */
  let last: { rss: number; events: number } | null = null;
  /** Resident memory right after the last release. */
  let floor = -1;
  const growth: number[] = [];
  const perEvent = () => (growth.length === 0 ? 0 : Math.max(...growth) * MARGIN);

  return {
    chunkEvents() {
      if (everyEvents === Infinity || growth.length === 0 || floor < 0) return Infinity;
      const rate = perEvent();
      return rate === 0 ? Infinity : Math.max(MIN_CHUNK_EVENTS, Math.floor((rssBudgetBytes - floor) / rate));
    },
    async beforeCommit(events, release) {
      if (everyEvents === Infinity) return;
      const now = rss();
      if (last !== null && last.events > 0) {
        growth.push(Math.max(0, now - last.rss) / last.events);
        if (growth.length > GROWTH_WINDOW) growth.shift();
      }
      since += events;
      if (since >= everyEvents || now + perEvent() * events >= rssBudgetBytes) {
        await release();
        since = events;
        floor = rss();
        last = { rss: floor, events };
      } else {
        last = { rss: now, events };
      }
    },
  };
}

/** Whole blocks in runs of at most `maxEvents()` events each (a larger block is a run of its own). */
export function* commitChunks(blocks: readonly BlockEvents[], maxEvents: () => number): Generator<BlockEvents[]> {
  let chunk: BlockEvents[] = [];
  let events = 0;
  let limit = maxEvents();
  for (const block of blocks) {
    if (chunk.length > 0 && events + block.events.length > limit) {
      yield chunk;
      chunk = [];
      events = 0;
      limit = maxEvents();
    }
    chunk.push(block);
    events += block.events.length;
  }
  if (chunk.length > 0) yield chunk;
}
