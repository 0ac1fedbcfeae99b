// How the fold bounds its resident memory (FoldRunner.releaseMappedState). Every page the fold reads through the
// state map stays resident until the map is released, and the kernel maps a whole run of neighbouring pages on
// each fault (16 pages measured here; far more when the file sits in large page-cache folios). Random keys
// spread each commit over the whole B-tree, so the map's resident part grows with the events committed and,
// unreleased, reaches the size of the state file: 1.2 GiB of 2.4 at 10M fills.
//
// So commits are sized from the measured growth of the map's resident pages per event: at most what the budget
// left the map at the last release (so a full-size commit normally follows a release: the number of releases is
// the map's growth over that room, however it is cut into commits), and the map is released before a commit
// predicted to take it past that room, at the latest every `everyEvents` events. Only the map's pages count as
// growth: a release frees them and nothing else, and the heaps' collection cycles would read as growth. When the
// heaps alone leave the map less than MIN_MAP_BYTES of the budget, the map still gets that much between
// releases: releasing before every commit would free nothing more and fold at a fraction of the speed (measured
// at 10M fills: commits shrank to 2,000 events, each after a release). The room is set at each release: the
// heaps' growth until the next one is not watched, so the process can pass the budget by that much. Releasing
// never changes the state (the map is closed and reopened between commits), only the memory and the time (pages
// are mapped in again).
import { readFileSync } from 'node:fs';
import { MIN_MAP_BYTES, RELEASE_EVERY_EVENTS, RELEASE_RSS_BUDGET_BYTES } from '../limits.js';
import { assert } from '../assert.js';

/** Recent commits whose growth per event predicts the next one's. */
const GROWTH_WINDOW = 8;
/** Predictions are scaled by this: growth varies from commit to commit. */
const MARGIN = 1.5;
/** The smallest commit: below it the cost per commit would dominate. */
const MIN_CHUNK_EVENTS = 2_000;

/** Resident bytes: all of them, and those of file maps (the state's map, mostly). */
export interface ResidentMemory {
  rss: number;
  mapped: number;
}

/** This process's resident memory (Linux /proc; elsewhere all of it counts as the map's). */
export function readResidentMemory(): ResidentMemory {
  const rss = process.memoryUsage.rss();
  try {
    const file = /RssFile:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'latin1'));
    const mapped = file ? Number(file[1]) * 1024 : rss;
    // Digits the pattern matched: a whole count of bytes (a policy fed NaN would never release).
    assert(Number.isSafeInteger(mapped) && mapped >= 0, "a process's file-mapped bytes are a count");
    return { rss, mapped };
  } catch {
    return { rss, mapped: rss };
  }
}

export interface ReleasePolicy {
  /**
   * Events the next commit may hold (Infinity until growth has been measured); it ends with the block that reaches
   * them, so it may pass them by that block's events.
   */
  chunkEvents(): number;
  /** Before a commit of `events` events, with no commit in flight: calls `release` first when it is due. */
  beforeCommit(events: number, release: () => Promise<void>): Promise<void>;
}

/** `everyEvents` Infinity turns releases off (a server sharing the store holds the map open). */
export function createReleasePolicy(
  everyEvents = RELEASE_EVERY_EVENTS,
  rssBudgetBytes = RELEASE_RSS_BUDGET_BYTES,
  memory: () => ResidentMemory = readResidentMemory,
): ReleasePolicy {
  // limits.ts, or a test's: a positive count of events (Infinity: never) and a positive budget.
  assert(everyEvents > 0 && rssBudgetBytes > 0, 'a release policy has a positive period and budget');
  let since = 0;
  /** The map's reading before the last commit, and that commit's events. */
  let last: { mapped: number; events: number } | null = null;
  /** The map's resident bytes right after the last release, and the most they may reach before the next (set by
   * the first reading until a release). */
  let floor = -1;
  let ceiling = Infinity;
  const growth: number[] = [];
  const perEvent = () => (growth.length === 0 ? 0 : Math.max(...growth) * MARGIN);
  const ceilingAbove = (mappedFloor: number, now: ResidentMemory) =>
    mappedFloor + Math.max(MIN_MAP_BYTES, rssBudgetBytes - now.rss);

  return {
    chunkEvents() {
      if (everyEvents === Infinity || growth.length === 0 || floor < 0) return Infinity;
      const rate = perEvent();
      // Set together at a release: the room above the floor is at least MIN_MAP_BYTES (ceilingAbove).
      assert(ceiling - floor >= MIN_MAP_BYTES && rate >= 0, "a release policy's room and growth are not negative");
      return rate === 0 ? Infinity : Math.max(MIN_CHUNK_EVENTS, Math.floor((ceiling - floor) / rate));
    },
    async beforeCommit(events, release) {
      if (everyEvents === Infinity) return;
      // A prepared batch's event count (the driver's).
      assert(Number.isSafeInteger(events) && events >= 0, 'a commit holds a count of events');
      const now = memory();
      if (last !== null && last.events > 0) {
        growth.push(Math.max(0, now.mapped - last.mapped) / last.events);
        if (growth.length > GROWTH_WINDOW) growth.shift();
      }
      assert(growth.length <= GROWTH_WINDOW, "a release policy predicts from its window's commits");
      since += events;
      if (ceiling === Infinity) ceiling = ceilingAbove(now.mapped, now);
      if (since >= everyEvents || now.mapped + perEvent() * events >= ceiling) {
        await release();
        since = events;
        const after = memory();
        floor = after.mapped;
        ceiling = ceilingAbove(floor, after);
        // The map gets at least MIN_MAP_BYTES between releases, whatever the heaps take of the budget.
        assert(ceiling - floor >= MIN_MAP_BYTES, 'a release leaves the map its least room');
        last = { mapped: floor, events };
      } else {
        last = { mapped: now.mapped, events };
      }
    },
  };
}
