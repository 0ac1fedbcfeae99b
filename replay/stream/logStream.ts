// The JetStream stream `tally publish` writes and `tally replica` reads (replay/README.md, Replicas): the log's
// frames, byte for byte, the off-chain store's changes (keys, metadata, profiles) and the wallet-tag runs, each
// item cut into chunks that fit the server's message size.
// Every message names what it carries in its headers, so a restarted publisher knows from the stream's last
// message alone where to go on, and a replica checks that the chunks it assembles follow one another.
import { headers, type MsgHdrs } from '@nats-io/transport-node';
import { RefusedError } from '../../engine/refusedError.js';

export const DEFAULT_STREAM = 'TALLY';
/** Three copies on three servers: one server down loses nothing and the stream still takes appends. */
export const STREAM_REPLICAS = 3;

/** Header, by kind: the frame's blocks, the off-chain changes' numbers, the tag run's number (`first-last`). */
const RANGE: Readonly<Record<ChunkKind, string>> = {
  frames: 'Tally-Blocks',
  offchain: 'Tally-Changes',
  tags: 'Tally-Run',
};
/** Header: where the chunk starts in its item, and the item's size: `offset/total`. */
const CHUNK = 'Tally-Chunk';
/** Header on tag-run chunks: the sha256 of the run's bytes, so an unchanged run is not published again. */
const SHA256 = 'Tally-Sha256';
/** Header on frame chunks: the publisher's fold settings (foldSettingsDigest.ts). */
const FOLD_SETTINGS = 'Tally-Fold-Settings';

export type ChunkKind = 'frames' | 'offchain' | 'tags';
const KINDS: readonly ChunkKind[] = ['frames', 'offchain', 'tags'];

export interface LogStreamNames {
  stream: string;
  /** The subject of each kind of item. */
  subjects: Readonly<Record<ChunkKind, string>>;
}

const STREAM_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function logStreamNames(stream: string): LogStreamNames {
  // A user's flag (--stream): refused in one line, as any other mistake of theirs.
  if (!STREAM_NAME.test(stream))
    throw new RefusedError(`stream name ${JSON.stringify(stream)}: use 1 to 64 letters, digits, '-' or '_'`);
  const prefix = `tally.${stream.toLowerCase()}`;
  return { stream, subjects: { frames: `${prefix}.frames`, offchain: `${prefix}.offchain`, tags: `${prefix}.tags` } };
}

/** What one message of the stream carries. */
export interface Chunk {
  kind: ChunkKind;
  /** A frame's blocks, a batch's first and last change numbers, a tag run's number (twice). */
  first: number;
  last: number;
  offset: number;
  total: number;
  /** Tag runs only. */
  sha256: string | null;
  /** Frames only. */
  foldSettings: string | null;
}

export function chunkHeaders(chunk: Chunk): MsgHdrs {
  const h = headers();
  h.set(RANGE[chunk.kind], `${chunk.first}-${chunk.last}`);
  h.set(CHUNK, `${chunk.offset}/${chunk.total}`);
  if (chunk.sha256 !== null) h.set(SHA256, chunk.sha256);
  if (chunk.foldSettings !== null) h.set(FOLD_SETTINGS, chunk.foldSettings);
  return h;
}

const RANGE_VALUE = /^(-1|\d+)-(-1|\d+)$/;
const CHUNK_VALUE = /^(\d+)\/(\d+)$/;

/** A message's chunk, or why the message is not one of tally's. */
export function readChunk(
  names: LogStreamNames,
  subject: string,
  h: MsgHdrs | undefined,
  dataBytes: number,
): Chunk | string {
  const kind = KINDS.find((k) => names.subjects[k] === subject);
  if (kind === undefined) return `subject ${subject} is none of ${KINDS.map((k) => names.subjects[k]).join(', ')}`;
  const blocks = RANGE_VALUE.exec(h?.get(RANGE[kind]) ?? '');
  const chunk = CHUNK_VALUE.exec(h?.get(CHUNK) ?? '');
  if (!blocks || !chunk) return `no ${RANGE[kind]} and ${CHUNK} headers`;
  const [first, last, offset, total] = [blocks[1], blocks[2], chunk[1], chunk[2]].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  if (last < first || offset + dataBytes > total || (dataBytes === 0 && total > 0))
    return `headers ${RANGE[kind]} ${first}-${last}, ${CHUNK} ${offset}/${total} do not fit a ${dataBytes}-byte message`;
  const sha256 = h?.get(SHA256) || null;
  if (kind === 'tags' && sha256 === null) return `a tag-run chunk without ${SHA256}`;
  const foldSettings = h?.get(FOLD_SETTINGS) || null;
  if (kind === 'frames' && foldSettings === null) return `a frame chunk without ${FOLD_SETTINGS}`;
  return { kind, first, last, offset, total, sha256, foldSettings };
}

/** Room left in a message for tally's headers and the protocol's. */
const HEADER_ROOM = 4096;

/** The largest chunk a server whose max_payload is `maxPayload` takes. */
export function chunkBytesFor(maxPayload: number): number {
  return Math.max(1024, maxPayload - HEADER_ROOM);
}
