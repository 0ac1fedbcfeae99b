// `tally replica`'s fold (replay/README.md, Replicas): the directory's NATS stream read through the one ingest
// (replay/ingest/ingestSource.ts) from the stream's source (replay/stream/streamSource.ts), from where the state
// left off.
import type { Venue } from '../openVenue.js';
import { RefusedError } from '../../engine/refusedError.js';
import { readStreamPosition } from '../../engine/state/streamPosition.js';
import { ingestSource } from '../../replay/ingest/ingestSource.js';
import type { LogStreamNames } from '../../replay/stream/logStream.js';
import { streamSource, type ReplicaProgress, type StreamSourceSettings } from '../../replay/stream/streamSource.js';

export type { ReplicaProgress } from '../../replay/stream/streamSource.js';

/** What to read from: the sequence after the state's, with the log cut back to the state's last frame. */
export function replicaStart(venue: Venue, names: LogStreamNames): { afterSequence: number; lastBlock: number } {
  const position = readStreamPosition(venue.store);
  if (position === null) {
    if (venue.log.head().block >= 0)
      throw new RefusedError(
        `${venue.paths.root} holds a log that was not read from a stream: a replica starts from an empty data directory`,
      );
    return { afterSequence: 0, lastBlock: -1 };
  }
  if (position.stream !== names.stream)
    throw new RefusedError(
      `${venue.paths.root} replicates stream ${position.stream}, not ${names.stream}: give --stream ${position.stream}`,
    );
  // Frames appended after the last commit that recorded the position (a crash in between): the stream has them.
  if (venue.log.head().block > position.lastBlock) venue.log.truncateAfter(position.lastBlock);
  return { afterSequence: position.sequence, lastBlock: position.lastBlock };
}

export async function replicateStream(
  venue: Venue,
  options: Omit<StreamSourceSettings, 'store' | 'offchain' | 'configPath' | 'root'>,
): Promise<ReplicaProgress> {
  const { source, progress } = streamSource({
    ...options,
    store: venue.store,
    offchain: venue.offchain,
    configPath: venue.paths.config,
    root: venue.paths.root,
  });
  await ingestSource(source, { log: venue.log, runner: venue.runner, releaseEveryEvents: Infinity });
  return progress;
}
