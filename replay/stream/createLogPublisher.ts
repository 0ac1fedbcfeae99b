// `tally publish`'s half of replication (replay/README.md, Replicas): the log's frames, in order and byte for
// byte, appended to a JetStream stream, each chunk conditioned on the stream's last sequence being the one this
// publisher last saw. So a publisher restarted after a crash, or a second one started by mistake, can neither
// append a chunk twice nor skip one: a refused append is looked at, and either it is this publisher's own chunk
// that landed before its acknowledgement was lost (taken as done) or the stream holds something else (refused).
// Where to go on is read from the stream itself: its last frame chunk names its blocks and its place in the frame,
// and the log must hold that very frame.
import { createHash } from 'node:crypto';
import { JetStreamApiCodes, JetStreamApiError, type StoredMsg } from '@nats-io/jetstream';
import type { EventLog } from '../../engine/log/eventLog.js';
import { FrameBoundaryError, type StoredFrame } from '../../engine/log/readFrameBytes.js';
import { RefusedError } from '../../engine/refusedError.js';
import { retryNats } from './retryNats.js';
import type { NatsLink } from './connectNats.js';
import { chunkBytesFor, chunkHeaders, readChunk, type Chunk, type LogStreamNames } from './logStream.js';

export interface PublishCounts {
  frames: number;
  chunks: number;
  bytes: number;
}

export interface LogPublisher {
  /** Publishes what the log holds beyond the stream: the rest of a frame cut short, then every later frame. */
  ship(): Promise<PublishCounts>;
  /** Publishes a metadata text unless the stream's last metadata is the same text; true when it published. */
  publishMetadata(text: string): Promise<boolean>;
  /** The stream's last sequence, as this publisher knows it. */
  sequence(): number;
  /** The last block the stream holds whole. */
  publishedThrough(): number;
}

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
  /** A frame the stream holds the first chunks of: the rest goes first. */
  let partial: { frame: StoredFrame; offset: number } | null = null;

  const retried = <T>(attempt: () => Promise<T>): Promise<T> => retryNats(attempt, { onRetry: options.onRetry });
  const streamMessage = (query: { seq: number } | { last_by_subj: string }): Promise<StoredMsg | null> =>
    retried(() => link.jsm.streams.getMessage(names.stream, query));

  // Where the stream stands: its last sequence, and the last frame chunk checked against the log.
  const info = await retried(() => link.jsm.streams.info(names.stream));
  sequence = info.state.last_seq;
  const lastFrame = await streamMessage({ last_by_subj: names.frames });
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

  async function publishFrame(frame: StoredFrame, from: number, counts: PublishCounts): Promise<void> {
    const { firstBlock: first, lastBlock: last } = frame.header;
    const total = frame.bytes.length;
    for (let offset = from; offset < total; offset += chunkBytes) {
      const data = frame.bytes.subarray(offset, Math.min(total, offset + chunkBytes));
      await append(names.frames, data, {
        kind: 'frames',
        first,
        last,
        offset,
        total,
        sha256: null,
        foldSettings: options.foldSettings,
      });
      counts.chunks++;
      counts.bytes += data.length;
    }
    through = last;
    counts.frames++;
  }

  return {
    async ship() {
      const counts: PublishCounts = { frames: 0, chunks: 0, bytes: 0 };
      if (partial) {
        await publishFrame(partial.frame, partial.offset, counts);
        partial = null;
      }
      for (const frame of log.frames(through)) await publishFrame(frame, 0, counts);
      return counts;
    },
    async publishMetadata(text) {
      const bytes = Buffer.from(text, 'utf8');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const last = await streamMessage({ last_by_subj: names.metadata });
      const lastChunk = last && readChunk(names, last.subject, last.header, last.data.length);
      const whole =
        lastChunk && typeof lastChunk !== 'string' && lastChunk.offset + last.data.length === lastChunk.total;
      if (whole && lastChunk.sha256 === sha256) return false;
      const total = bytes.length;
      for (let offset = 0; offset === 0 || offset < total; offset += chunkBytes) {
        const data = bytes.subarray(offset, Math.min(total, offset + chunkBytes));
        await append(names.metadata, data, {
          kind: 'metadata',
          first: through,
          last: through,
          offset,
          total,
          sha256,
          foldSettings: null,
        });
      }
      return true;
    },
    sequence: () => sequence,
    publishedThrough: () => through,
  };
}
