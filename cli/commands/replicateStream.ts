// `tally replica`'s fold (replay/README.md, Replicas): the stream's chunks assembled into frames, each appended to
// this directory's log as it was published (so the two logs hold the same bytes) and folded, the stream position
// written in the same transaction as the frame's commits (engine/state/streamPosition.ts); off-chain changes go to
// the off-chain store as the publisher logged them, and tag runs into the state as the publisher made them, each
// once the frames before it are committed, the stream position then moved to it. Both are puts of whole entries, so
// one read again after a crash between the put and the position changes nothing. When the stream has nothing more,
// the state is at rest: the caller rolls the board up then.
import { createHash } from 'node:crypto';
import type { Venue } from '../openVenue.js';
import { createIngestDriver } from '../../engine/fold/createIngestDriver.js';
import { writeOffchain } from '../../engine/offchain/offchainWrites.js';
import { putTagRunBytes } from '../../engine/state/tagRuns.js';
import { decodeChangeBatch } from '../../replay/stream/decodeChangeBatch.js';
import { RefusedError } from '../../engine/refusedError.js';
import { readStreamPosition, streamPositionWrite, writeStreamPosition } from '../../engine/state/streamPosition.js';
import type { NatsLink } from '../../replay/stream/connectNats.js';
import type { Chunk, LogStreamNames } from '../../replay/stream/logStream.js';
import { readLogStream } from '../../replay/stream/readLogStream.js';

export interface ReplicaProgress {
  sequence: number;
  frames: number;
  /** Off-chain changes applied. */
  changes: number;
  tagRuns: number;
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
    /**
     * Caught up with the stream, everything committed; `offchainChanged` when off-chain changes came since the last
     * rest. May answer in how many ms to be called again if the stream stays quiet (a rollup put off).
     */
    atRest?: (offchainChanged: boolean, progress: ReplicaProgress) => Promise<number | undefined>;
  },
): Promise<ReplicaProgress> {
  const { names, start } = options;
  const driver = createIngestDriver({ log: venue.log, runner: venue.runner, releaseEveryEvents: Infinity });
  await driver.catchUp();
  const progress: ReplicaProgress = {
    sequence: start.afterSequence,
    frames: 0,
    changes: 0,
    tagRuns: 0,
    block: start.lastBlock,
  };
  let offchainChanged = false;
  /** The item being put together from its chunks. */
  let parts: { chunk: Chunk; data: Uint8Array[]; bytes: number } | null = null;
  const refuse = (sequence: number, detail: string) =>
    new RefusedError(`stream ${names.stream}, sequence ${sequence}: ${detail}`);

  // Work put off at a rest runs later while the stream stays quiet; the next message waits for it, so it still reads
  // one block's state throughout.
  let later: NodeJS.Timeout | undefined;
  let deferred: Promise<unknown> = Promise.resolve();
  const rest = async (changed: boolean) => {
    const againMs = await options.atRest?.(changed, progress);
    if (againMs === undefined) return;
    later = setTimeout(() => {
      deferred = rest(false);
      // Thrown at the next message's await (or the end's), not as an unhandled rejection meanwhile.
      deferred.catch(() => undefined);
    }, againMs);
  };
  try {
    for await (const message of readLogStream({
      link: options.link,
      names,
      afterSequence: start.afterSequence,
      stallMs: options.stallMs,
      signal: options.signal,
      onRecreate: options.onRecreate,
    })) {
      clearTimeout(later);
      await deferred;
      const { chunk, sequence } = message;
      if (chunk.offset === 0) {
        // An off-chain batch or tag run cut short (its publisher died) is sent again whole; a frame never is.
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
        } else if (chunk.kind === 'offchain') {
          await driver.finish();
          const changes = decodeChangeBatch(bytes, chunk, (detail) => refuse(sequence, detail));
          const changed = await writeOffchain(venue.offchain, (writes) =>
            changes.reduce((any, change) => writes.put(change.table, change.key, change.value) || any, false),
          );
          if (changed) offchainChanged = true;
          progress.changes += changes.length;
        } else {
          await driver.finish();
          const sha256 = createHash('sha256').update(bytes).digest('hex');
          if (sha256 !== chunk.sha256) throw refuse(sequence, `tag run ${chunk.first} does not hash to its sha256`);
          putTagRunBytes(venue.store, chunk.first, Buffer.from(bytes), null);
          progress.tagRuns++;
        }
        if (chunk.kind !== 'frames')
          await writeStreamPosition(venue.store, { stream: names.stream, sequence, lastBlock: progress.block });
      }
      progress.sequence = sequence;
      if (message.pending === 0 && parts === null) {
        await driver.finish();
        await rest(offchainChanged);
        offchainChanged = false;
      }
    }
  } finally {
    clearTimeout(later);
    await deferred;
    await driver.finish();
  }
  return progress;
}
