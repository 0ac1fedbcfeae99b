// The one shape of a chain source (docs/recipes.md, Add a source): what a capture file, an RPC node and a NATS
// stream each hand the one ingest (replay/ingest/ingestSource.ts), batch by batch in chain order. A source reads; the
// ingest appends, folds, commits and hands a backfill off, the same way for all of them.
import type { BlockEvents } from '../../engine/chain/chainEvent.js';
import type { FrameHeader } from '../../engine/log/logFrame.js';
import type { HandOffResult } from '../../engine/fold/handOffPositions.js';
import type { MetaWrite } from '../../engine/state/stateWrite.js';

/** Where the log ends: its last block (-1 when empty) and the log index of that block's last event (-1: none). */
export interface LogEnd {
  block: number;
  logIndex: number;
}

export interface SourceBatch {
  /**
   * Blocks for the log, encoded as its frame already (a capture's reader, a stream: appended as they are, `meta`
   * written with each of their commits), or decoded (an RPC node). Neither: a batch of empty blocks.
   */
  frame?: { bytes: Uint8Array; meta?: MetaWrite };
  blocks?: BlockEvents[];
  /** The source's head as it knows it now and the block it has read through: the fold aims at it first. */
  aim?: { head: number; from: number };
  /** Committed before the next batch is read: a server sharing the state sees each batch once it is read. */
  commit?: boolean;
  /** After its blocks are committed, a backfill within reach of `head` (from `at`) hands off to live mode. */
  handOffNear?: { head: number; at: number };
  /** Told the frame's header once it is appended (before it is committed): a source counting its progress. */
  appended?(header: FrameHeader | null): void;
  /** Run with everything before it committed: a replica's off-chain changes, a node's head recorded, a rest. */
  settled?(): Promise<void>;
}

export interface ChainSource {
  /** A backfill the state is in hands off at the catch-up before reading (a replica's), else it goes on. */
  readonly handOffFirst: boolean;
  /**
   * Checks made before anything is read, reading after `after`; `end`, when the source knows ahead where it ends
   * (a capture file's last block; null: not known before it is read, a pipe): the fold aims at it.
   */
  open(after: LogEnd): Promise<{ end?: number | null }>;
  batches(): AsyncIterable<SourceBatch>;
  /** Once every batch is in, committed: the last hand-off, and what the source records of its end. */
  ended?(handOffNear: (head: number, at?: number) => Promise<HandOffResult | null>): Promise<void>;
  /** Its readers stopped, the last read waited for (after an error too). */
  close(): Promise<void>;
}
