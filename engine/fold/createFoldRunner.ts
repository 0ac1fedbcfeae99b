// The fold driver (engine/README.md, Pipeline; docs/style.md: prefetch, fold, commit). For each batch of whole blocks:
// derive on the main thread (market registry, fills table, position events), fold each wallet partition in
// its own piscina worker, chain the per-block checksums, and write state, checksums and cursor in one LMDB
// transaction, so a crash never double-counts or loses an event.
import { Piscina } from 'piscina';
import type { BlockEvents } from '../chain/chainEvent.js';
import type { PositionEvent } from '../reducers/positionEvent.js';
import type { VenueAddresses } from '../chain/venueAddresses.js';
import { blockChecksum, entryEnd, type EntryRun } from '../state/blockChecksum.js';
import {
  CURSOR_KEY,
  encodeBlockRecord,
  readFoldCursor,
  type BlockRecord,
  type FoldCursor,
} from '../state/foldCursor.js';
import { createBlockWrites, type BlockWrites } from '../state/blockWrites.js';
import { protocolV2Contracts } from '../chain/protocolV2Contracts.js';
import { clobVenueContracts } from '../chain/venueAddresses.js';
import { createMarketRegistry } from '../state/createMarketRegistry.js';
import { putEntry, putStateWrite, type StateStore } from '../state/openStateStore.js';
import type { StateDbName } from '../state/stateDbNames.js';
import type { MetaWrite } from '../state/stateWrite.js';
import { encodeValue } from '../state/stateCodec.js';
import { blockFillsKey, blockRecordKey } from '../state/stateKeys.js';
import { createStateIds } from '../state/createStateIds.js';
import { ID_SPACE, type IdCounts, type IdDictionary } from '../log/idDictionary.js';
import type { StateWrite } from '../state/stateWrite.js';
import { describeCommitFailure } from '../state/stateWriteError.js';
import { encodeBlockFills, type BlockFill, type TradeRow } from '../state/tradeRow.js';
import { createFillLists } from '../state/createFillLists.js';
import { deriveBlock } from './deriveBlock.js';
import { txOfLog } from './txOfLog.js';
import { walletMoveOf } from './walletMoveOf.js';
import { encodeWalletMove, walletMoveKey } from '../state/walletMove.js';
import type { DeriveContext, SkipReason } from './deriveContext.js';
import { createPositionRecordWriter } from './positionRecords.js';
import { createTransferSlots } from './transferSlots.js';
import { readWalletFoldResult, type WalletFoldResult, type WalletFoldTask } from './walletFoldTask.js';
import { workerOptions } from '../workerOptions.js';
import { assert } from '../assert.js';
import { boundHeapGrowth } from './boundHeapGrowth.js';
import {
  BACKFILL_KEY,
  encodeBackfillRecord,
  readBackfillRecord,
  type BackfillRecord,
} from '../state/backfillRecord.js';
import { backfillPositionKey } from '../state/stateKeys.js';
import { entryKeyAt, entryValueAt } from '../state/blockChecksum.js';
import { handOffPositions, handOffRunDir, type HandOffResult } from './handOffPositions.js';
import { rmSync } from 'node:fs';
import { POSITION_CACHE, WALLET_WORKER_OLD_SPACE_MB } from '../limits.js';

/** A block as its batch keeps it once derived: the events are not held through the commit. */
export interface BlockSummary {
  block: number;
  ts: number;
  hash: string;
  events: number;
}

/** A batch derived on the main thread, waiting for its wallet fold and commit. */
export interface PreparedBatch {
  /** The market registry's number for it. */
  registryBatch: number;
  blocks: BlockSummary[];
  eventCount: number;
  /** Each wallet partition's position events, as records to move to its worker. */
  partitionRecords: Array<{ buffer: ArrayBuffer; length: number }>;
  slotCount: number;
  mainWrites: StateWrite[][];
  fillCount: number;
  /** The state's id counts after the batch. */
  ids: IdCounts;
  /** The fill lists the batch touched, whole: written with it, outside the block checksums (they restate the fills). */
  listWrites: StateWrite[];
}

/** A batch on its way into the state (FoldRunner.commitBatch). */
export interface BatchCommit {
  /**
   * Its wallets are folded and its write is queued behind the previous batch's, which the state now holds: the
   * next batch may be committed, and its wallet fold then overlaps this write.
   */
  folded: Promise<void>;
  /** The state holds it. */
  written: Promise<void>;
}

export interface FoldRunner {
  cursor(): FoldCursor;
  /**
   * Derives a batch (synchronous) of the blocks `source` gives next, taking them one at a time until the batch
   * holds `maxEvents` events or more (a block is never split); null when the source had none left. It may run
   * while earlier batches are still being committed: the market registry's cache holds everything uncommitted, so
   * derive never reads stale state.
   */
  prepareBatch(source: Iterator<BlockEvents>, maxEvents: number): PreparedBatch | null;
  /**
   * Folds the wallets and writes the batch. Batches are committed in the order they were prepared, each once
   * the previous one is folded; a batch whose predecessor fails is abandoned with it, and so is every later one:
   * after a failure the runner commits nothing more (the process closes the state and a new runner resumes from
   * the cursor).
   */
  commitBatch(batch: PreparedBatch, meta?: MetaWrite): BatchCommit;
  /**
   * Between commits (none in flight): every thread closes the state and the main thread reopens it, which
   * releases the file pages the map made resident. Long folds call it periodically to bound their memory.
   */
  releaseMappedState(): Promise<void>;
  /** How many times the state map was released (the driver's releases and the hand-off's). */
  releases(): number;
  /** The state's backfill (backfillRecord.ts), or null while it folds live. */
  backfill(): BackfillRecord | null;
  /**
   * With no commit in flight: the batches from the next one on fold in backfill mode, aimed at `target`; the record
   * is written with the first of them. Nothing changes when the state backfills already.
   */
  startBackfill(target: number): void;
  /**
   * With no commit in flight: builds `positions` from the working table and folds live from then on
   * (handOffPositions.ts); null when the state was not backfilling. `releaseMap` false: the map is never released
   * meanwhile (a server shares the store).
   */
  handOff(options?: { releaseMap?: boolean }): Promise<HandOffResult | null>;
  readonly skipped: Record<string, number>;
  close(): Promise<void>;
}

/** Which worker folds a wallet: a stable function of the address alone. */
function partitionOf(wallet: string, partitions: number): number {
  const partition = parseInt(wallet.slice(-8), 16) % partitions;
  // A decoded address (0x + 40 hex): its last 4 bytes a u32, so one of the partitions (NaN for any other text).
  assert(partition >= 0 && partition < partitions, 'fold: a wallet belongs to one partition');
  return partition;
}

export function createFoldRunner(options: {
  store: StateStore;
  stateDir: string;
  addresses: VenueAddresses;
  /** The dictionary of the log the runner folds (createStateIds finds the state's ids through it). */
  logIds: IdDictionary;
  workers?: number;
  /** False: the trade store is off (foldOptions), no fills table and no fill lists are kept. */
  trades?: boolean;
  /** Positions the wallet workers keep between batches, all together (memory against reads of the state). */
  positionCache?: number;
  /** False: the fold never backfills (the live-mode fold that tests and benches compare a backfill with). */
  backfill?: boolean;
}): FoldRunner {
  const keepTrades = options.trades ?? true;
  const { store, addresses } = options;
  const partitions = Math.max(1, options.workers ?? 1);
  const pools = Array.from(
    { length: partitions },
    () =>
      new Piscina({
        ...workerOptions('engine/fold/walletFoldWorker', import.meta.url),
        minThreads: 1,
        maxThreads: 1,
        idleTimeout: 60_000,
        resourceLimits: { maxOldGenerationSizeMb: WALLET_WORKER_OLD_SPACE_MB },
      }),
  );
  const registry = createMarketRegistry(store);
  const venueContracts = new Set<string>(clobVenueContracts(addresses));
  for (const address of protocolV2Contracts(addresses)) venueContracts.add(address);
  for (const { key } of store.dbs.pools.getRange({})) venueContracts.add(String(key));
  const skipped: Record<string, number> = {};
  let cursor = readFoldCursor(store);
  /** The last prepared block: batches are prepared ahead of the committed cursor. */
  let preparedThrough = cursor.block;
  /** The last block of the last batch handed to commitBatch: batches are committed in the order prepared. */
  let committingThrough = cursor.block;
  let commitsInFlight = 0;
  /** The last batch's write, cursor included: the next batch's checksums chain from it. */
  let lastWrite: Promise<void> = Promise.resolve();
  let epoch = 0;
  let backfill = readBackfillRecord(store);
  // Run files of a hand-off killed after its record was removed, or of a state discarded since: nothing loads them.
  if (backfill === null) rmSync(handOffRunDir(options.stateDir), { recursive: true, force: true });
  /** A backfill's record until a commit has written it. */
  let backfillToWrite: Buffer | null = null;

  let slotCount = 0;
  let blockFills: Array<{ market: string; row: TradeRow }> = [];
  let blockPositionEvents: PositionEvent[] = [];
  const fillLists = createFillLists(store, cursor.fills);
  const stateIds = createStateIds(store, cursor.ids, options.logIds);
  /** Fills of the venue through the last prepared block: the next fill's number. */
  let preparedFills = cursor.fills;
  let writes: BlockWrites = createBlockWrites();
  // Per-batch collection, filled by the derive sink. Ids are numbered here, in derive order, whatever the worker count.
  const partitionRecords = Array.from({ length: partitions }, () =>
    createPositionRecordWriter((space, text) => stateIds.id(space, text, writes)),
  );

  const ctx: DeriveContext = {
    addresses,
    registry,
    isVenueContract: (address) => venueContracts.has(address),
    addVenueContract: (address) => void venueContracts.add(address),
    sink: {
      positionEvent(event) {
        // Derived from the block being derived (prepareBatch set preparedThrough to it first), and written at its end.
        assert(event.block === preparedThrough, 'fold: a position event is of the block derived');
        blockPositionEvents.push(event);
      },
      trade(market, row) {
        // A condition id (0x + 64 hex), or the token id itself (64 hex) when no condition explains the token.
        assert(market.length === 66 || market === row.token, "fold: a fill's market is its condition or its token");
        blockFills.push({ market, row });
      },
      skip(reason: SkipReason) {
        skipped[reason] = (skipped[reason] ?? 0) + 1;
      },
      nextSlot: () => slotCount++,
    },
  };

  /**
   * The block's position events into their partitions' records, at its end: a fee refund may have corrected one until
   * then.
   */
  function writePositionEvents(): void {
    for (const event of blockPositionEvents) partitionRecords[partitionOf(event.wallet, partitions)]!.write(event);
    blockPositionEvents = [];
  }

  /**
   * The block's splits, merges, redemptions and conversions into the wallets' move lists (walletMove.ts), kept with
   * the fills: each under its wallet, block and log index, with its market's id and its transaction's hash.
   */
  function writeWalletMoves(block: BlockEvents): void {
    if (!keepTrades) return;
    // Made at a block's first move: most blocks have none, and this runs for every block.
    let moved: Set<string> | null = null;
    for (const event of blockPositionEvents) {
      const move = walletMoveOf(event);
      if (move === null) continue;
      const walletId = stateIds.id(ID_SPACE.address, event.wallet, writes);
      const key = walletMoveKey(walletId, block.block, event.logIndex);
      // Each derive step moves a wallet once a log at most (a split's NO sent on is a transfer, not a move).
      moved ??= new Set();
      assert(!moved.has(key), 'fold: a log moves a wallet once');
      moved.add(key);
      const marketId = stateIds.id(ID_SPACE.condition, move.market, writes);
      writes.putBytes('walletMoves', key, encodeWalletMove({ ...move, tx: txOfLog(block, event.logIndex) }, marketId));
    }
  }

  /**
   * The block's fills into the fills table, as one value (encoded now: a fee refund may have corrected a row until
   * the block's end), and onto their wallet's and market's lists, numbered in chain order.
   */
  function writeFills(block: BlockEvents): void {
    if (!keepTrades || blockFills.length === 0) {
      blockFills = [];
      return;
    }
    blockFills.sort((a, b) => a.row.logIndex - b.row.logIndex);
    const stored: BlockFill[] = [];
    const firstFill = preparedFills;
    let previousLogIndex = -1;
    for (const { market, row } of blockFills) {
      // One fill a log (an OrderFilled, an FPMM trade): its (block, log index) names it in the fill lists.
      assert(row.logIndex > previousLogIndex, "fold: a block's fills are each of their own log");
      previousLogIndex = row.logIndex;
      const wallet = stateIds.id(ID_SPACE.address, row.wallet, writes);
      const counterparty = stateIds.id(ID_SPACE.address, row.counterparty, writes);
      const token = stateIds.id(ID_SPACE.token, row.token, writes);
      // The market is the token itself when no condition explains it.
      const marketSpace = market === row.token ? ID_SPACE.token : ID_SPACE.condition;
      const marketId = marketSpace === ID_SPACE.token ? token : stateIds.id(ID_SPACE.condition, market, writes);
      stored.push({ row, ids: { wallet, counterparty, token, marketSpace, market: marketId } });
      fillLists.add('walletFills', 0, wallet, preparedFills, block.block, row.logIndex);
      fillLists.add('marketFills', marketSpace, marketId, preparedFills, block.block, row.logIndex);
      preparedFills++;
    }
    assert(preparedFills - firstFill === stored.length, 'fold: each fill stored is numbered once');
    writes.putBytes('fills', blockFillsKey(block.block), encodeBlockFills(block.ts, stored));
    blockFills = [];
  }

  /** Each worker's share of the position cache: it folds its share of the wallets. */
  const cacheLimit = Math.ceil((options.positionCache ?? POSITION_CACHE) / partitions);

  async function foldWallets(batch: PreparedBatch, backfilling: boolean): Promise<WalletFoldResult[]> {
    // prepareBatch took a record buffer of every partition's writer: one task a pool.
    assert(batch.partitionRecords.length === pools.length, 'fold: a partition a wallet worker');
    const slots = createTransferSlots(batch.slotCount);
    return Promise.all(
      pools.map(async (pool, i) => {
        const { buffer, length } = batch.partitionRecords[i]!;
        // Taken from a writer whose length counts f64s written into this buffer; moved, so not detached yet.
        assert(length * 8 <= buffer.byteLength, "fold: a partition's records lie inside their buffer");
        const task: WalletFoldTask = {
          stateDir: options.stateDir,
          records: buffer,
          recordLength: length,
          slots,
          slotCount: batch.slotCount,
          epoch,
          committedBlock: cursor.block,
          storedIds: cursor.ids,
          cacheLimit,
          backfill: backfilling,
        };
        return (await pool.run(task, { transferList: [buffer] })) as WalletFoldResult;
      }),
    );
  }

  /** Nothing of an abandoned batch was committed: forget every cached record it may have changed. */
  function abandon(): void {
    registry.trim(true);
    preparedThrough = cursor.block;
    committingThrough = cursor.block;
    preparedFills = cursor.fills;
    blockFills = [];
    blockPositionEvents = [];
    for (const records of partitionRecords) records.take();
    fillLists.clear(cursor.fills);
    stateIds.reset(cursor.ids);
    epoch++;
  }

  function prepareBatch(source: Iterator<BlockEvents>, maxEvents: number): PreparedBatch | null {
    // Prepared ahead of the cursor, never behind it (abandon brings both back to the cursor).
    assert(preparedThrough >= cursor.block && preparedFills >= cursor.fills, 'fold: preparing goes on from the cursor');
    let next = source.next();
    if (next.done) return null;
    // Safe with a commit in flight: a trim keeps the records and ids of batches not yet written.
    registry.trim();
    stateIds.trim(cursor.ids);
    const registryBatch = registry.startBatch();
    slotCount = 0;
    const blocks: BlockSummary[] = [];
    const mainWrites: StateWrite[][] = [];
    const firstFill = preparedFills;
    let eventCount = 0;
    try {
      for (;;) {
        const block = next.value;
        assert(block.block > preparedThrough, 'fold: each block is after the last one prepared');
        preparedThrough = block.block;
        writes = createBlockWrites();
        registry.startBlock(writes);
        deriveBlock(ctx, block);
        writeWalletMoves(block);
        writePositionEvents();
        writeFills(block);
        mainWrites.push(writes.finish());
        blocks.push({ block: block.block, ts: block.ts, hash: block.hash, events: block.events.length });
        eventCount += block.events.length;
        if (eventCount >= maxEvents) break;
        next = source.next();
        if (next.done) break;
      }
    } catch (error) {
      abandon();
      throw error;
    }
    // A block's writes a block, its events all derived (written at its end), at least one block a batch.
    assert(blocks.length > 0 && mainWrites.length === blocks.length, 'fold: a batch has the writes of each block');
    assert(blockPositionEvents.length === 0 && blockFills.length === 0, "fold: a batch's events are all written");
    return {
      registryBatch,
      blocks,
      eventCount,
      partitionRecords: partitionRecords.map((records) => records.take()),
      slotCount,
      mainWrites,
      fillCount: preparedFills - firstFill,
      ids: stateIds.counts(),
      listWrites: fillLists.takeWrites(),
    };
  }

  /** The batch's writes in one LMDB transaction, queued once its wallets are folded and `previous` is written. */
  async function foldAndWrite(
    batch: PreparedBatch,
    previous: Promise<void>,
    queued: () => void,
    meta: MetaWrite | undefined,
  ): Promise<void> {
    const { blocks, mainWrites } = batch;
    const backfilling = backfill !== null;
    const backfillRecord = backfillToWrite;
    backfillToWrite = null;
    // Dispatched now: the workers fold while the previous batch is written (walletFoldWorker keeps what it changed).
    const folding = foldWallets(batch, backfilling);
    folding.catch(() => undefined);
    // A failed predecessor has abandoned every batch after it: its error is the one to report.
    await previous;
    try {
      const results = await folding;

      // The workers' writes stay entries in their answers: hashed and put from there (no object a write).
      const answers = results.map(readWalletFoldResult);
      // One answer a partition, its blocks the batch's: a worker folds only the events it was sent.
      assert(answers.length === partitions, 'fold: a wallet worker answers for each partition');
      const [firstBlock, lastBlock] = [blocks[0]!.block, blocks[blocks.length - 1]!.block];
      for (const answer of answers)
        for (const block of answer.blocks.keys())
          assert(block >= firstBlock && block <= lastBlock, "fold: a worker's blocks are its batch's");
      /** A block's position and index key writes, one part per wallet partition. */
      const workerRuns = (block: number): EntryRun[] => {
        const runs: EntryRun[] = [
          { db: 'positions', parts: [] },
          { db: 'marketWallets', parts: [] },
        ];
        for (const { bytes, blocks } of answers) {
          const entry = blocks.get(block);
          if (!entry) continue;
          runs[0]!.parts.push({ bytes, ...entry.positions });
          runs[1]!.parts.push({ bytes, ...entry.indexKeys });
        }
        return runs;
      };
      // Chain the checksums block by block, then keep each key's last bytes of the main thread's writes.
      const finalWrites = new Map<StateDbName, Map<string, Buffer>>();
      const keepFinal = (writes: StateWrite[]) => {
        for (const write of writes) {
          let values = finalWrites.get(write.db);
          if (!values) finalWrites.set(write.db, (values = new Map()));
          values.set(write.key, write.value);
        }
      };
      const blockRecords: BlockRecord[] = [];
      let checksum = cursor.checksum;
      let events = cursor.events;
      for (let i = 0; i < blocks.length; i++) {
        const block = blocks[i]!;
        const blockWrites = mainWrites[i]!;
        // Each checksum chains from the previous block's: the batch follows the cursor, its blocks in order.
        assert(block.block > (i === 0 ? cursor.block : blocks[i - 1]!.block), 'fold: blocks are folded in order');
        checksum = blockChecksum(checksum, block.block, blockWrites, workerRuns(block.block));
        events += block.events;
        blockRecords.push({
          block: block.block,
          ts: block.ts,
          hash: block.hash,
          checksum,
          events: block.events,
        });
        keepFinal(blockWrites);
      }
      keepFinal(batch.listWrites);
      const last = blocks[blocks.length - 1]!;
      const next: FoldCursor = {
        block: last.block,
        checksum,
        events,
        blocks: cursor.blocks + blocks.length,
        fills: cursor.fills + batch.fillCount,
        ids: batch.ids,
      };
      // The cursor only moves forward: the state numbers ids and fills, and never forgets one.
      assert(
        next.fills >= cursor.fills && next.ids.every((count, space) => count >= cursor.ids[space]!),
        "fold: a commit's cursor moves forward",
      );
      // A batch, not a transaction callback: the puts are queued and LMDB's own write thread applies them, in one
      // transaction, so the B-tree work is off this thread (inside a callback every put runs here).
      const written = store.env.batch(() => {
        for (const [name, values] of finalWrites) {
          // In key order: B-tree pages are then visited once each, which makes the puts markedly cheaper (the
          // native string sort, no comparator callback, is byte order for ASCII keys and latin1 binary ones).
          for (const key of [...values.keys()].sort()) putStateWrite(store, name, key, values.get(key)!);
        }
        // Each position's last write (in the order of the table it goes to), and the new index keys (each written
        // once). Backfilling, positions go to the working table under its token-first key.
        for (const { bytes, blocks, lastWrites } of answers) {
          if (backfilling) for (const at of lastWrites) putWorkingEntry(bytes, at);
          else for (const at of lastWrites) putEntry(store, 'positions', bytes, at);
          for (const { indexKeys } of blocks.values())
            for (let at = indexKeys.start; at < indexKeys.end; at = entryEnd(bytes, at))
              putEntry(store, 'marketWallets', bytes, at);
        }
        for (const record of blockRecords)
          putStateWrite(store, 'blocks', blockRecordKey(record.block), encodeBlockRecord(record));
        store.dbs.meta.put(CURSOR_KEY, encodeValue(next));
        if (meta) store.dbs.meta.put(meta.key, meta.value);
        if (backfillRecord) store.dbs.meta.put(BACKFILL_KEY, backfillRecord);
      });
      queued();
      await written;
      cursor = next;
      registry.committed(batch.registryBatch);
    } catch (error) {
      // Not written: the next batch writes it (no batch is committed after a failure, but a new runner reads none).
      backfillToWrite ??= backfillRecord;
      abandon();
      throw describeCommitFailure(error, options.stateDir);
    }
  }

  function commitBatch(batch: PreparedBatch, meta?: MetaWrite): BatchCommit {
    if (batch.blocks.length === 0) return { folded: lastWrite, written: lastWrite };
    // Committed in the order prepared, each once: its checksums chain from the one before it.
    assert(batch.blocks[0]!.block > committingThrough, 'fold: batches are committed in the order prepared');
    committingThrough = batch.blocks[batch.blocks.length - 1]!.block;
    let queued!: () => void;
    const folded = new Promise<void>((resolve) => (queued = resolve));
    commitsInFlight++;
    const written = foldAndWrite(batch, lastWrite, queued, meta).finally(() => commitsInFlight--);
    lastWrite = written;
    // Awaited by the next batch, the driver or a release; until then a failure must not count as unhandled.
    written.catch(() => undefined);
    return { folded: Promise.race([folded, written]), written };
  }

  let releases = 0;
  async function releaseMappedState(readAhead = false): Promise<void> {
    assert(commitsInFlight === 0, 'releaseMappedState: no commit is in flight');
    releases++;
    await Promise.all(pools.map((pool) => pool.run(null, { name: 'releaseStores' })));
    await store.reopen({ readAhead });
  }

  /** A position write of a worker's answer, put into the working table under its token-first key. */
  function putWorkingEntry(bytes: Buffer, at: number): void {
    const keyAt = entryKeyAt(bytes, at);
    const valueAt = entryValueAt(bytes, at);
    // A position's key is its wallet's and its token's ids, u32 each (positionKey).
    assert(valueAt - keyAt === 8, "fold: a position's key is its two ids");
    const key = backfillPositionKey(bytes.readUInt32BE(keyAt + 4), bytes.readUInt32BE(keyAt));
    void store.dbs.backfillPositions.put(Buffer.from(key, 'latin1'), bytes.subarray(valueAt, entryEnd(bytes, at)));
  }

  function startBackfill(target: number): void {
    assert(commitsInFlight === 0, 'startBackfill: no commit is in flight');
    if (backfill !== null || options.backfill === false) return;
    backfill = {
      since: cursor.block,
      positionsEmpty: store.dbs.positions.getKeysCount({ limit: 1 }) === 0,
      target,
      loading: -1,
      entries: 0,
    };
    backfillToWrite = encodeBackfillRecord(backfill);
  }

  async function handOff(handOffOptions: { releaseMap?: boolean } = {}): Promise<HandOffResult | null> {
    assert(commitsInFlight === 0, 'handOff: no commit is in flight');
    if (backfill === null) return null;
    // Never committed: nothing was folded into the working table.
    if (backfillToWrite !== null) {
      backfill = null;
      backfillToWrite = null;
      return { positions: 0, seconds: 0, collectSeconds: 0, runFiles: 0 };
    }
    // A server sharing the store keeps its map: releases are the driver's to allow.
    const release = (handOffOptions.releaseMap ?? true) ? releaseMappedState : async () => undefined;
    try {
      // The stored record: a hand-off that failed part-way left it further on than this runner knew.
      const result = await handOffPositions(store, readBackfillRecord(store)!, { stateDir: options.stateDir, release });
      backfill = null;
      return result;
    } catch (error) {
      backfill = readBackfillRecord(store);
      throw error;
    }
  }

  const liftHeapBound = boundHeapGrowth();
  return {
    skipped,
    cursor: () => cursor,
    prepareBatch,
    commitBatch,
    releaseMappedState,
    releases: () => releases,
    backfill: () => backfill,
    startBackfill,
    handOff,
    async close() {
      try {
        await Promise.all(pools.map((pool) => pool.destroy()));
      } finally {
        liftHeapBound();
      }
    },
  };
}
