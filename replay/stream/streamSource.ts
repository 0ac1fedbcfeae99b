// A NATS log stream as a chain source (replay/source/chainSource.ts), `tally replica`'s (replay/README.md,
// Replicas): the stream's chunks assembled into frames, each appended to this directory's log as it was published
// (so the two logs hold the same bytes) and folded, the stream position written in the same transaction as the
// frame's commits (engine/state/streamPosition.ts); off-chain changes go to the off-chain store as the publisher
// logged them, and tag runs into the state as the publisher made them, each once the frames before it are
// committed, the stream position then moved to it. Both are puts of whole entries, so one read again after a crash
// between the put and the position changes nothing. When the stream has nothing more, the state is at rest: the
// caller rolls the board up then.
import { createHash } from 'node:crypto';
import { writeOffchain } from '../../engine/offchain/offchainWrites.js';
import type { OffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { RefusedError } from '../../engine/refusedError.js';
import type { StateStore } from '../../engine/state/openStateStore.js';
import { streamPositionWrite, writeStreamPosition } from '../../engine/state/streamPosition.js';
import { putTagRunBytes } from '../../engine/state/tagRuns.js';
import type { ChainSource, SourceBatch } from '../source/chainSource.js';
import type { NatsLink } from './connectNats.js';
import { decodeChangeBatch } from './decodeChangeBatch.js';
import type { Chunk, LogStreamNames } from './logStream.js';
import { readLogStream } from './readLogStream.js';

export interface ReplicaProgress {
  sequence: number;
  frames: number;
  /** Off-chain changes applied. */
  changes: number;
  tagRuns: number;
  block: number;
}

export interface StreamSourceSettings {
  link: NatsLink;
  names: LogStreamNames;
  /** Where to read from: the sequence after the state's, and the state's last block. */
  start: { afterSequence: number; lastBlock: number };
  store: StateStore;
  offchain: OffchainStore;
  /** The fold settings' digest this directory folds with: a frame published with others is refused. */
  foldSettings: string;
  /** The config file the refusal names. */
  configPath: string;
  /** The data directory the refusal names. */
  root: string;
  stallMs: number;
  signal: AbortSignal;
  onRecreate?: (reason: string) => void;
  /**
   * Caught up with the stream, everything committed; `offchainChanged` when off-chain changes came since the last
   * rest. May answer in how many ms to be called again if the stream stays quiet (a rollup put off).
   */
  atRest?: (offchainChanged: boolean, progress: ReplicaProgress) => Promise<number | undefined>;
}

export function streamSource(options: StreamSourceSettings): { source: ChainSource; progress: ReplicaProgress } {
  const { names, start, store } = options;
  const progress: ReplicaProgress = {
    sequence: start.afterSequence,
    frames: 0,
    changes: 0,
    tagRuns: 0,
    block: start.lastBlock,
  };
  const refuse = (sequence: number, detail: string) =>
    new RefusedError(`stream ${names.stream}, sequence ${sequence}: ${detail}`);
  let offchainChanged = false;
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
  /** An off-chain batch or a tag run, applied once the frames before it are committed; the position moves to it. */
  const apply = async (chunk: Chunk, bytes: Uint8Array, sequence: number) => {
    if (chunk.kind === 'offchain') {
      const changes = decodeChangeBatch(bytes, chunk, (detail) => refuse(sequence, detail));
      const changed = await writeOffchain(options.offchain, (writes) =>
        changes.reduce((any, change) => writes.put(change.table, change.key, change.value) || any, false),
      );
      if (changed) offchainChanged = true;
      progress.changes += changes.length;
    } else {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (sha256 !== chunk.sha256) throw refuse(sequence, `tag run ${chunk.first} does not hash to its sha256`);
      putTagRunBytes(store, chunk.first, Buffer.from(bytes), null);
      progress.tagRuns++;
    }
    await writeStreamPosition(store, { stream: names.stream, sequence, lastBlock: progress.block });
  };
  const source: ChainSource = {
    handOffFirst: true,
    async open() {
      return {};
    },
    async *batches() {
      /** The item being put together from its chunks. */
      let parts: { chunk: Chunk; data: Uint8Array[]; bytes: number } | null = null;
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
          const whole = parts.bytes === chunk.total;
          const bytes = !whole ? null : parts.data.length === 1 ? parts.data[0]! : Buffer.concat(parts.data);
          if (whole) parts = null;
          progress.sequence = sequence;
          const atRest = message.pending === 0 && parts === null;
          const batch: SourceBatch = {};
          if (bytes !== null && chunk.kind === 'frames') {
            if (chunk.foldSettings !== options.foldSettings)
              throw refuse(
                sequence,
                `published with other contract addresses or fold options than ${options.configPath}: copy the publisher's config.json and feedAggregators.json (when it has them) into ${options.root}`,
              );
            if (chunk.first <= progress.block)
              throw refuse(
                sequence,
                `frame of blocks ${chunk.first}..${chunk.last} does not follow block ${progress.block}`,
              );
            batch.frame = {
              bytes,
              meta: streamPositionWrite({ stream: names.stream, sequence, lastBlock: chunk.last }),
            };
            batch.appended = () => {
              progress.frames++;
              progress.block = chunk.last;
            };
          }
          const applied = bytes !== null && chunk.kind !== 'frames' ? bytes : null;
          if (applied !== null || atRest) {
            batch.settled = async () => {
              if (applied !== null) await apply(chunk, applied, sequence);
              if (!atRest) return;
              const changed = offchainChanged;
              offchainChanged = false;
              await rest(changed);
            };
          }
          if (batch.frame || batch.settled) yield batch;
        }
      } finally {
        clearTimeout(later);
        await deferred;
      }
    },
    async close() {},
  };
  return { source, progress };
}
