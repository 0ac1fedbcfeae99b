// `tally replica`'s fold (replay/README.md, Replicas): the stream's chunks assembled into frames, each appended to
// this directory's log as it was published (so the two logs hold the same bytes) and folded, the stream position
// written in the same transaction as the frame's commits (engine/state/streamPosition.ts); metadata texts go to
// the off-chain store. When the stream has nothing more, the state is at rest: the caller rolls the board up then.
import type { Venue } from '../openVenue.js';
import { createIngestDriver } from '../../engine/fold/createIngestDriver.js';
import { parseMetadataText } from '../../engine/offchain/marketMetadata.js';
import { RefusedError } from '../../engine/refusedError.js';
import { readStreamPosition, streamPositionWrite } from '../../engine/state/streamPosition.js';
import type { NatsLink } from '../../replay/stream/connectNats.js';
import type { Chunk, LogStreamNames } from '../../replay/stream/logStream.js';
import { readLogStream } from '../../replay/stream/readLogStream.js';
import { storeMetadata } from './metadataCommand.js';

export interface ReplicaProgress {
  sequence: number;
  frames: number;
  metadata: number;
  block: number;
}

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
  options: {
    link: NatsLink;
    names: LogStreamNames;
    /** Where to read from (replicaStart), found before the server started. */
    start: { afterSequence: number; lastBlock: number };
    foldSettings: string;
    stallMs: number;
    signal: AbortSignal;
    onRecreate?: (reason: string) => void;
    /** Caught up with the stream, everything committed; `offchainChanged` when metadata came since the last rest. */
    atRest?: (offchainChanged: boolean, progress: ReplicaProgress) => Promise<void>;
  },
): Promise<ReplicaProgress> {
  const { names, start } = options;
  const driver = createIngestDriver({ log: venue.log, runner: venue.runner, releaseEveryEvents: Infinity });
  await driver.catchUp();
  const progress: ReplicaProgress = { sequence: start.afterSequence, frames: 0, metadata: 0, block: start.lastBlock };
  let offchainChanged = false;
  /** The item being put together from its chunks. */
  let parts: { chunk: Chunk; data: Uint8Array[]; bytes: number } | null = null;
  const refuse = (sequence: number, detail: string) =>
    new RefusedError(`stream ${names.stream}, sequence ${sequence}: ${detail}`);

  try {
    for await (const message of readLogStream({
      link: options.link,
      names,
      afterSequence: start.afterSequence,
      stallMs: options.stallMs,
      signal: options.signal,
      onRecreate: options.onRecreate,
    })) {
      const { chunk, sequence } = message;
      if (chunk.offset === 0) {
        // A metadata text cut short (its publisher died) is superseded by whatever follows; a frame never is.
        if (parts && parts.chunk.kind === 'frames')
          throw refuse(sequence, `frame of blocks ${parts.chunk.first}..${parts.chunk.last} is cut short`);
        parts = { chunk, data: [], bytes: 0 };
      } else if (
        !parts ||
        parts.bytes !== chunk.offset ||
        parts.chunk.kind !== chunk.kind ||
        parts.chunk.first !== chunk.first ||
        parts.chunk.total !== chunk.total
      ) {
        throw refuse(sequence, `chunk at ${chunk.offset}/${chunk.total} does not continue the one before`);
      }
      parts.data.push(message.data);
      parts.bytes += message.data.length;
      if (parts.bytes === chunk.total) {
        const bytes = parts.data.length === 1 ? parts.data[0]! : Buffer.concat(parts.data);
        parts = null;
        if (chunk.kind === 'frames') {
          if (chunk.foldSettings !== options.foldSettings)
            throw refuse(
              sequence,
              `published with other contract addresses or fold options than ${venue.paths.config}: copy the publisher's config.json and feedAggregators.json (when it has them) into ${venue.paths.root}`,
            );
          if (chunk.first <= progress.block)
            throw refuse(
              sequence,
              `frame of blocks ${chunk.first}..${chunk.last} does not follow block ${progress.block}`,
            );
          await driver.appendFrame(
            bytes,
            streamPositionWrite({ stream: names.stream, sequence, lastBlock: chunk.last }),
          );
          progress.frames++;
          progress.block = chunk.last;
        } else {
          const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
          const markets = parseMetadataText(text, `stream ${names.stream}, sequence ${sequence}`);
          const stored = await storeMetadata(venue.offchain, markets, `stream ${names.stream}`);
          if (stored.added + stored.changed > 0) offchainChanged = true;
          progress.metadata++;
        }
      }
      progress.sequence = sequence;
      if (message.pending === 0 && parts === null) {
        await driver.finish();
        await options.atRest?.(offchainChanged, progress);
        offchainChanged = false;
      }
    }
  } finally {
    await driver.finish();
  }
  return progress;
}
