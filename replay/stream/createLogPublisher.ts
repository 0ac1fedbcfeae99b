// `tally publish`'s half of replication (replay/README.md, Replicas): the log's frames, in order and byte for
// byte, appended to a JetStream stream, each chunk conditioned on the stream's last sequence being the one this
// publisher last saw. So a publisher restarted after a crash, or a second one started by mistake, can neither
// append a chunk twice nor skip one: a refused append is looked at, and either it is this publisher's own chunk
// that landed before its acknowledgement was lost (taken as done) or the stream holds something else (refused).
// Where to go on is read from the stream itself: its last frame chunk names its blocks and its place in the frame,
// and the log must hold that very frame; its last off-chain chunk names the last change sent, its last tag-run
// chunk the run's sha256. After the frames a ship sends the off-chain store's changes since (offchainWrites.ts) and
// the latest tag run when it is not the stream's, so a replica's answers come to equal this directory's.
import { JetStreamApiCodes, JetStreamApiError, type StoredMsg } from '@nats-io/jetstream';
import type { EventLog } from '../../engine/log/eventLog.js';
import type { OffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { readChangesAfter } from '../../engine/offchain/offchainWrites.js';
import type { StateStore } from '../../engine/state/openStateStore.js';
import { encodeValue } from '../../engine/state/stateCodec.js';
import { readLatestTagRunBytes, readLatestTagRunSha } from '../../engine/state/tagRuns.js';
import { FrameBoundaryError, type StoredFrame } from '../../engine/log/readFrameBytes.js';
import { RefusedError } from '../../engine/refusedError.js';
import { retryNats } from './retryNats.js';
import type { NatsLink } from './connectNats.js';
import { chunkBytesFor, chunkHeaders, readChunk, type Chunk, type LogStreamNames } from './logStream.js';

export interface PublishCounts {
  frames: number;
  chunks: number;
  bytes: number;
  /** Off-chain changes sent. */
  changes: number;
  /** Tag runs sent. */
  tagRuns: number;
}

export interface LogPublisher {
  /**
   * Publishes what the directory holds beyond the stream: the rest of a frame cut short, every later frame, the
   * off-chain changes after the last one sent, and the latest tag run unless the stream's is the same.
   */
  ship(): Promise<PublishCounts>;
  /** The stream's last sequence, as this publisher knows it. */
  sequence(): number;
  /** The last block the stream holds whole. */
  publishedThrough(): number;
}

/** Changes read from the store at a time. */
const CHANGES_A_READ = 10_000;
/** A change's msgpack framing in a batch, above its key and value: its number, its table's name, the headers. */
const CHANGE_OVERHEAD_BYTES = 32;

const MISMATCH =
  'which this log does not hold as published (the stream of another venue, or this log was rewound since): one stream takes one log';

/** The log's frame that starts at `first`, if one does. */
function frameFrom(log: EventLog, first: number): StoredFrame | undefined {
  try {
    return log.frames(first - 1).next().value ?? undefined;
  } catch (error) {
    // Block `first - 1` lies inside one of this log's frames: its frames are cut elsewhere.
    if (error instanceof FrameBoundaryError) return undefined;
    throw error;
  }
}

export async function createLogPublisher(options: {
  link: NatsLink;
  names: LogStreamNames;
  log: EventLog;
  /** The off-chain store whose change log is sent. */
  offchain: OffchainStore;
  /** The state whose latest wallet-tag run is sent. */
  state: StateStore;
  foldSettings: string;
  /** Told of each failed append that is tried again (a server down, no leader yet). */
  onRetry?: (cause: string) => void;
  /** Chunks smaller than the server allows (tests). */
  chunkBytes?: number;
}): Promise<LogPublisher> {
  const { link, names, log } = options;
  const chunkBytes = Math.min(options.chunkBytes ?? Infinity, chunkBytesFor(link.maxPayload));

  let sequence = 0;
  let through = -1;
  /** The last off-chain change the stream holds whole. */
  let changesThrough = 0;
  /** The sha256 of the stream's last whole tag run. */
  let tagRunSha: string | null = null;
  /** A frame the stream holds the first chunks of: the rest goes first. */
  let partial: { frame: StoredFrame; offset: number } | null = null;

  const retried = <T>(attempt: () => Promise<T>): Promise<T> => retryNats(attempt, { onRetry: options.onRetry });
  const streamMessage = (query: { seq: number } | { last_by_subj: string }): Promise<StoredMsg | null> =>
    retried(() => link.jsm.streams.getMessage(names.stream, query));

  // Where the stream stands: its last sequence, and the last frame chunk checked against the log.
  const info = await retried(() => link.jsm.streams.info(names.stream));
  sequence = info.state.last_seq;
  const lastFrame = await streamMessage({ last_by_subj: names.subjects.frames });
  if (lastFrame) {
    const chunk = readChunk(names, lastFrame.subject, lastFrame.header, lastFrame.data.length);
    if (typeof chunk === 'string')
      throw new RefusedError(`stream ${names.stream}, sequence ${lastFrame.seq}: ${chunk}: not a tally log stream`);
    const frame = log.head().block >= chunk.last ? frameFrom(log, chunk.first) : undefined;
    const where = `stream ${names.stream} ends with blocks ${chunk.first}..${chunk.last}`;
    if (
      !frame ||
      frame.header.firstBlock !== chunk.first ||
      frame.header.lastBlock !== chunk.last ||
      frame.bytes.length !== chunk.total ||
      !frame.bytes.subarray(chunk.offset, chunk.offset + lastFrame.data.length).equals(lastFrame.data)
    )
      throw new RefusedError(`${where}, ${MISMATCH}`);
    if (chunk.foldSettings !== options.foldSettings)
      throw new RefusedError(`${where}, published with other contract addresses or fold options (config.json)`);
    const end = chunk.offset + lastFrame.data.length;
    if (end === chunk.total) through = chunk.last;
    else {
      through = chunk.first - 1;
      partial = { frame, offset: end };
    }
  }
  // An off-chain batch or a run cut short is sent again whole: a replica drops the part it holds.
  const lastChanges = await lastWholeChunk('offchain');
  if (lastChanges) changesThrough = lastChanges.whole ? lastChanges.chunk.last : lastChanges.chunk.first - 1;
  const lastRun = await lastWholeChunk('tags');
  if (lastRun?.whole) tagRunSha = lastRun.chunk.sha256;

  /** The stream's last chunk of a kind, and whether it ends its item. */
  async function lastWholeChunk(kind: 'offchain' | 'tags'): Promise<{ chunk: Chunk; whole: boolean } | null> {
    const message = await streamMessage({ last_by_subj: names.subjects[kind] });
    if (!message) return null;
    const chunk = readChunk(names, message.subject, message.header, message.data.length);
    if (typeof chunk === 'string')
      throw new RefusedError(`stream ${names.stream}, sequence ${message.seq}: ${chunk}: not a tally log stream`);
    return { chunk, whole: chunk.offset + message.data.length === chunk.total };
  }

  /** Appends one chunk at `sequence + 1`, trying again for as long as the cluster cannot take it. */
  async function append(subject: string, data: Uint8Array, chunk: Chunk): Promise<void> {
    const headers = chunkHeaders(chunk);
    try {
      const ack = await retried(() =>
        link.js.publish(subject, data, { headers, expect: { lastSequence: sequence, streamName: names.stream } }),
      );
      sequence = ack.seq;
    } catch (error) {
      if (
        !(error instanceof JetStreamApiError) ||
        (error.code !== JetStreamApiCodes.StreamWrongLastSequence &&
          error.code !== JetStreamApiCodes.StreamWrongLastSequenceUnknown)
      )
        throw error;
      // An earlier attempt may have landed with its acknowledgement lost (a server died in between).
      const landed = await streamMessage({ seq: sequence + 1 });
      if (!landed || landed.subject !== subject || !sameChunk(landed, chunk, data))
        throw new RefusedError(
          `stream ${names.stream} was appended to by someone else after sequence ${sequence}: one publisher per stream`,
        );
      sequence += 1;
    }
  }

  function sameChunk(message: StoredMsg, chunk: Chunk, data: Uint8Array): boolean {
    const stored = readChunk(names, message.subject, message.header, message.data.length);
    return (
      typeof stored !== 'string' &&
      stored.first === chunk.first &&
      stored.last === chunk.last &&
      stored.offset === chunk.offset &&
      stored.total === chunk.total &&
      Buffer.from(message.data).equals(data)
    );
  }

  /** Appends an item's bytes from `from` on, chunk by chunk, each with the item's headers. */
  async function publishItem(
    bytes: Uint8Array,
    from: number,
    item: Omit<Chunk, 'offset' | 'total'>,
    counts: PublishCounts,
  ): Promise<void> {
    const total = bytes.length;
    for (let offset = from; offset < total; offset += chunkBytes) {
      const data = bytes.subarray(offset, Math.min(total, offset + chunkBytes));
      await append(names.subjects[item.kind], data, { ...item, offset, total });
      counts.chunks++;
      counts.bytes += data.length;
    }
  }

  async function publishFrame(frame: StoredFrame, from: number, counts: PublishCounts): Promise<void> {
    const { firstBlock: first, lastBlock: last } = frame.header;
    const item = { kind: 'frames', first, last, sha256: null, foldSettings: options.foldSettings } as const;
    await publishItem(frame.bytes, from, item, counts);
    through = last;
    counts.frames++;
  }

  /** Sends the off-chain changes after the last sent, in batches of about a chunk (a larger change goes alone). */
  async function publishChanges(counts: PublishCounts): Promise<void> {
    for (;;) {
      const changes = readChangesAfter(options.offchain, changesThrough, CHANGES_A_READ);
      if (changes.length === 0) return;
      let batch: unknown[] = [];
      let bytes = 0;
      const send = async () => {
        const first = batch[0] as [number];
        const last = batch.at(-1) as [number];
        const item = { kind: 'offchain', first: first[0], last: last[0], sha256: null, foldSettings: null } as const;
        await publishItem(encodeValue(batch), 0, item, counts);
        changesThrough = last[0];
        counts.changes += batch.length;
        batch = [];
        bytes = 0;
      };
      for (const change of changes) {
        const size = change.key.length + change.value.length + CHANGE_OVERHEAD_BYTES;
        if (batch.length > 0 && bytes + size > chunkBytes) await send();
        batch.push([change.seq, change.table, change.key, change.value]);
        bytes += size;
      }
      await send();
    }
  }

  async function publishTagRun(counts: PublishCounts): Promise<void> {
    const sha256 = readLatestTagRunSha(options.state);
    if (sha256 === null || sha256 === tagRunSha) return;
    const latest = readLatestTagRunBytes(options.state)!;
    const item = { kind: 'tags', first: latest.run, last: latest.run, sha256, foldSettings: null } as const;
    await publishItem(latest.bytes, 0, item, counts);
    tagRunSha = sha256;
    counts.tagRuns++;
  }

  return {
    async ship() {
      const counts: PublishCounts = { frames: 0, chunks: 0, bytes: 0, changes: 0, tagRuns: 0 };
      if (partial) {
        await publishFrame(partial.frame, partial.offset, counts);
        partial = null;
      }
      for (const frame of log.frames(through)) await publishFrame(frame, 0, counts);
      await publishChanges(counts);
      await publishTagRun(counts);
      return counts;
    },
    sequence: () => sequence,
    publishedThrough: () => through,
  };
}
