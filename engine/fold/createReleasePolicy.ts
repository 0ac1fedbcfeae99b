// When the fold releases the state map (FoldRunner.releaseMappedState). Random keys spread every batch over the
// whole B-tree, so the map's resident pages grow by about 6 pages an event until released (measured at 1M and
// 10M fills): at 10M fills 50k events made 1.3 GiB resident. So a release is due after `everyEvents` events, or
// as soon as the process's resident memory passes the budget, whichever comes first. Releasing never changes
// the state (the map is closed and reopened between commits), only the memory and the time.

/** Events between releases when memory stays low. */
export const RELEASE_EVERY_EVENTS = 50_000;
/** Resident memory past which the next batch boundary releases the map (the target is a 1.5 GiB peak). */
export const RELEASE_RSS_BUDGET_BYTES = 1280 * 1024 ** 2;

export interface ReleasePolicy {
  /** Counts a batch about to be committed; true when the map is to be released first. */
  due(batchEvents: number): boolean;
}

/** `everyEvents` Infinity turns releases off (a server sharing the store holds the map open). */
export function createReleasePolicy(everyEvents = RELEASE_EVERY_EVENTS, rssBudgetBytes = RELEASE_RSS_BUDGET_BYTES): ReleasePolicy {
  let since = 0;
  return {
    due(batchEvents) {
      if (everyEvents === Infinity) return false;
      since += batchEvents;
      if (since < everyEvents && process.memoryUsage.rss() < rssBudgetBytes) return false;
      since = 0;
      return true;
    },
  };
}
