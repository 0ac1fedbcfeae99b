// When the fold releases the state map (FoldRunner.releaseMappedState). Random keys spread every batch over the
// whole B-tree, so the map's resident pages grow with every batch until released: by about 6 pages an event at
// 1M and 10M fills, 1.3 GiB for 50k events at 10M. So a release is due before the batch that would take the
// process's resident memory past the budget, predicted from the largest growth of a recent batch, and at the
// latest after `everyEvents` events. Releasing never changes the state (the map is closed and reopened between
// commits), only the memory and the time (pages are mapped in again).

/** Events between releases at the latest. */
export const RELEASE_EVERY_EVENTS = 500_000;
/** The resident memory no batch is to take the process past (the target is a 1.5 GiB peak). */
export const RELEASE_RSS_BUDGET_BYTES = 1280 * 1024 ** 2;
/** Recent batches whose growth predicts the next one's. */
const GROWTH_WINDOW = 8;

export interface ReleasePolicy {
  /** Counts a batch about to be committed; true when the map is to be released first. */
  due(batchEvents: number): boolean;
}

/** `everyEvents` Infinity turns releases off (a server sharing the store holds the map open). */
export function createReleasePolicy(
  everyEvents = RELEASE_EVERY_EVENTS, rssBudgetBytes = RELEASE_RSS_BUDGET_BYTES, rss: () => number = process.memoryUsage.rss,
): ReleasePolicy {
  let since = 0;
  let previous = -1;
  const growths: number[] = [];
  return {
    due(batchEvents) {
      if (everyEvents === Infinity) return false;
      const now = rss();
      if (previous >= 0) {
        growths.push(Math.max(0, now - previous));
        if (growths.length > GROWTH_WINDOW) growths.shift();
      }
      since += batchEvents;
      // Twice the largest recent growth: the batch in flight and this one may both still add theirs.
      if (since < everyEvents && now + 2 * Math.max(0, ...growths) < rssBudgetBytes) {
        previous = now;
        return false;
      }
      // The release drops the resident memory: the next growth is measured from the batch after it.
      since = 0;
      previous = -1;
      return true;
    },
  };
}
