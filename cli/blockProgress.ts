// How far a command reading a node has come (capture, ingest --rpc, run): the share of the blocks from the first
// block to the head read so far, and the time left at the block rate of this run. Blocks, not logs: the number of
// logs ahead is unknown until they are read. The venue's activity grew over the years, so early on, while the
// blocks read were the quiet ones, the estimate is short.

export interface BlockProgressFields {
  done: string;
  /** Absent until a rate is measured, and once caught up. */
  eta?: string;
}

export function formatDuration(seconds: number): string {
  if (seconds < 59.5) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(seconds / 3600);
  if (hours < 48) return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** `firstBlock`: where the range starts (the venue's first block for a log, --from-block for a capture). */
export function createBlockProgress(
  firstBlock: number,
  now: () => number = Date.now,
): (scanned: number, head: number) => BlockProgressFields {
  let start: { block: number; ms: number } | null = null;
  return (scanned, head) => {
    const total = head - firstBlock + 1;
    const read = Math.min(Math.max(scanned - firstBlock + 1, 0), total);
    const fields: BlockProgressFields = { done: `${total > 0 ? ((100 * read) / total).toFixed(1) : '100.0'}%` };
    // The rate is measured from the first report on: where this run began is not known to the caller.
    if (start === null) start = { block: scanned, ms: now() };
    const rate = (scanned - start.block) / ((now() - start.ms) / 1000);
    if (scanned < head && rate > 0) fields.eta = formatDuration((head - scanned) / rate);
    return fields;
  };
}
