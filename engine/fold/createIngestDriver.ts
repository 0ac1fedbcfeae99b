// The one ingest driver (engine/README.md, Pipeline): append -> prepare -> release -> commit, for every way
// blocks reach the state: a capture's frames, an RPC node's batches, and the log's own blocks beyond the cursor
// (catching up after a crash between append and commit; replay and verify rebuilding the state). The log is
// written before anything is folded, so a crash leaves the state behind its log, never ahead. Batches flow
// through three stages on their own threads: batch k+1 is derived (main thread) while batch k's wallets are
// folded (wallet workers) and batch k-1 is written (LMDB's write thread).
import type { BlockEvents } from '../chain/chainEvent.js';
import type { EventLog } from '../log/eventLog.js';
import type { FrameHeader } from '../log/logFrame.js';
import type { BlockSummary, FoldRunner } from './createFoldRunner.js';
import type { MetaWrite } from '../state/stateWrite.js';
import { createReleasePolicy } from './createReleasePolicy.js';
import { UNKNOWN_TARGET } from '../state/backfillRecord.js';
import { BACKFILL_BEHIND_BLOCKS, FOLD_BATCH_LOGS } from '../limits.js';
import type { HandOffResult } from './handOffPositions.js';
import { assert } from '../assert.js';

export interface IngestDriver {
  /**
   * Folds the log's blocks after the cursor (through `toBlock`) in batches of about `batchEvents` events;
   * `onBatch` hears each batch once it is committed.
   */
  catchUp(options?: {
    toBlock?: number;
    batchEvents?: number;
    onBatch?: (blocks: BlockSummary[]) => void;
    /** False: a backfill is left running for the source that follows (default: handed off at the end, the log read). */
    handOff?: boolean;
  }): Promise<void>;
  /**
   * With nothing in flight: the folds from here on backfill when the state holds nothing or is more than
   * BACKFILL_BEHIND_BLOCKS behind `target`, the block the source will take it to (engine/README.md, Backfill).
   * `target` null: the source's end is not known before it is read (a capture from a pipe); the state backfills
   * only when it holds nothing. `from`: the last block the source has been read through (default: the state's
   * last block); `whenEmpty` false: an empty state backfills only when far behind too.
   */
  aim(target: number | null, options?: { from?: number; whenEmpty?: boolean }): Promise<void>;
  /**
   * Once everything handed over is written: a backfill within BACKFILL_BEHIND_BLOCKS of `head` (the source's last
   * block) from `at` (default: the state's last block) hands off to live mode; null when none did.
   */
  handOffNear(head: number, at?: number): Promise<HandOffResult | null>;
  /** A source's new blocks: appended to the log as one frame, then folded. */
  appendBlocks(blocks: BlockEvents[]): Promise<void>;
  /**
   * A source's frame, already encoded (the capture reader's): folded as its blocks are decoded, and appended as it
   * is before any of them is committed; answers its header. `meta` is written with each of its commits.
   */
  appendFrame(frame: Uint8Array, meta?: MetaWrite): Promise<FrameHeader>;
  /** Waits for the commit in flight: the state then holds everything handed over. */
  finish(): Promise<void>;
}

export function createIngestDriver(options: {
  log: EventLog;
  runner: FoldRunner;
  /**
   * Events between releases of the state map at most (see createReleasePolicy); Infinity when a server shares the
   * store.
   */
  releaseEveryEvents?: number;
}): IngestDriver {
  const { log, runner } = options;
  const release = createReleasePolicy(options.releaseEveryEvents);
  /** The last batch committed: folded, and written with everything before it (onBatch included). */
  let folded: Promise<void> = Promise.resolve();
  let written: Promise<void> = Promise.resolve();
  /**
   * The first failure of a batch in flight, its commit's or its onBatch's: no batch is prepared after it, and it is
   * the error reported (a later batch fails with it or not at all).
   */
  let failure: { error: unknown } | null = null;
  /** Everything handed over is written, or the first failure is thrown. */
  const settled = async () => {
    await written.catch(() => undefined);
    if (failure) throw failure.error;
  };
  // The map is released with nothing in flight.
  const releaseMap = async () => {
    await settled();
    await runner.releaseMappedState();
  };

  /**
   * Folds the blocks in batches of `batchEvents` events, or what the release policy allows if less (a batch ends
   * with the block that reaches it, so it may pass it by that block's events; the last may hold fewer), each block
   * taken from `blocks` as its batch is derived.
   */
  async function fold(
    blocks: Iterable<BlockEvents>,
    batchEvents: number,
    onBatch?: (blocks: BlockSummary[]) => void,
    /** Before each commit: the log must hold what it commits. */
    beforeCommit?: () => void,
    meta?: MetaWrite,
  ): Promise<void> {
    // A hand-off killed while loading left the working table empty and `positions` part-built: it is finished first.
    if ((runner.backfill()?.loading ?? -1) >= 0) {
      await settled();
      await handOff();
    }
    const source = blocks[Symbol.iterator]();
    /** The last block of the last batch prepared here: a batch takes the blocks after it. */
    let through = -Infinity;
    /** The last block onBatch heard of here. */
    let heard = -Infinity;
    try {
      for (;;) {
        if (failure) throw failure.error;
        const prepared = runner.prepareBatch(source, Math.min(batchEvents, release.chunkEvents()));
        if (prepared === null) return;
        // prepareBatch answers null rather than an empty batch, and takes each block from the source once.
        assert(prepared.blocks.length > 0 && prepared.blocks[0]!.block > through, 'ingest: batches follow one another');
        through = prepared.blocks[prepared.blocks.length - 1]!.block;
        await folded;
        await release.beforeCommit(prepared.eventCount, releaseMap);
        beforeCommit?.();
        const commit = runner.commitBatch(prepared, meta);
        const before = written;
        const summaries = prepared.blocks;
        folded = commit.folded;
        written = commit.written.then(async () => {
          await before;
          // Each batch's onBatch waits for the one before: they hear the batches in chain order.
          assert(summaries[0]!.block > heard, 'ingest: batches are heard in order');
          heard = summaries[summaries.length - 1]!.block;
          onBatch?.(summaries);
        });
        // Awaited before the next commit or by finish; until then a failure must not count as unhandled.
        folded.catch(() => undefined);
        written.catch((error: unknown) => void (failure ??= { error }));
      }
    } finally {
      // A log reader left part-way closes its segment file.
      source.return?.();
    }
  }

  async function aim(target: number | null, options: { from?: number; whenEmpty?: boolean } = {}): Promise<void> {
    // A source's last block (the log's head, a capture's last line, the node's finalized head), or null.
    assert(target === null || Number.isSafeInteger(target), 'ingest: a backfill aims at a block');
    await settled();
    const { block } = runner.cursor();
    const read = options.from ?? block;
    const empty = block < 0 && (options.whenEmpty ?? true);
    if (target === null) {
      if (empty) runner.startBackfill(UNKNOWN_TARGET);
    } else if (target > read && (empty || target - read > BACKFILL_BEHIND_BLOCKS)) runner.startBackfill(target);
  }

  /** A server sharing the store (releases off) keeps its map through the hand-off too. */
  const handOff = () => runner.handOff({ releaseMap: options.releaseEveryEvents !== Infinity });

  async function handOffNear(head: number, at?: number): Promise<HandOffResult | null> {
    assert(Number.isSafeInteger(head), "ingest: a hand-off is near a source's head block");
    await settled();
    if (runner.backfill() === null || head - (at ?? runner.cursor().block) > BACKFILL_BEHIND_BLOCKS) return null;
    return handOff();
  }

  return {
    async catchUp(catchUpOptions = {}) {
      const target = catchUpOptions.toBlock ?? log.head().block;
      await aim(target);
      const start = runner.cursor().block;
      const blocks = log.read(start, catchUpOptions.toBlock);
      await fold(blocks, catchUpOptions.batchEvents ?? FOLD_BATCH_LOGS, catchUpOptions.onBatch);
      await settled();
      // The log read after the cursor, through the target: the cursor moved forward and no further.
      const reached = runner.cursor().block;
      assert(reached >= start && reached <= Math.max(start, target), 'ingest: a catch-up folds up to its target');
      // The log read to its end (or toBlock): the source is folded, however far its last event lies below it.
      if (catchUpOptions.handOff ?? true) await handOff();
    },
    aim,
    handOffNear,
    async appendBlocks(blocks) {
      if (blocks.length === 0) return;
      log.append(blocks);
      await fold(blocks, Infinity);
    },
    async appendFrame(frame, meta) {
      const opened = log.openFrame(frame);
      // The blocks the fold has not taken when a commit is due are decoded then, so that the frame is appended
      // whole (and checked whole) before the commit (a frame cut into several commits by the release policy).
      let rest: IterableIterator<BlockEvents> = opened.blocks;
      let appended = false;
      const appendWhole = () => {
        if (appended) return;
        rest = [...rest][Symbol.iterator]();
        opened.append();
        appended = true;
      };
      try {
        await fold({ [Symbol.iterator]: () => ({ next: () => rest.next() }) }, Infinity, undefined, appendWhole, meta);
        appendWhole();
      } catch (error) {
        opened.discard();
        throw error;
      }
      return opened.header;
    },
    finish: settled,
  };
}
