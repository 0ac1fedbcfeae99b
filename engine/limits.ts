// The limits and sizes tally runs with, in one place: how much it reads, folds and writes at once, and how much
// memory each part may keep. Each is measured or reasoned where it says; formats' own widths stay with the formats.

// The fold pipeline.

/**
 * Logs (or events) a fold takes at once: a capture reader's batch, a catch-up's from the log. The batches in flight
 * (three stages) live on the heaps, and LMDB mallocs a commit's dirty pages and keeps them for reuse until the map
 * is released (its `me_dpages`): both grow with the batch. Measured on the first 3.12 M fills of the 10M era capture,
 * one fold each: 25,000-log batches 305-308 s, anonymous peak 765-777 MiB; 12,500 240-270 s, 677-678 MiB; 6,250
 * 243 s, 642 MiB. On the 1M era capture, two rounds: 25,000 42.8 and 45.5 s; 12,500 39.6 and 47.0 s; 6,250 43.5 and
 * 53.4 s (the per-batch costs show). Earlier, on the 200k demo: 100k 11.3 s at 1,455 MiB peak RSS, 25k 10.2-11.0 s
 * at about 1,020 MiB, 10k 11.8 s.
 */
export const FOLD_BATCH_LOGS = 12_500;

/**
 * State ids (createStateIds) the fold keeps per space by their text, beyond the batches not yet committed and the
 * tokens the log never names, in each of two generations: about 13 MiB of the main thread's heap for 100,000
 * wallets. The 10M demo names 300,000 wallets; a miss costs a lookup in the log's dictionary, never a read.
 */
export const STATE_ID_CACHE = 50_000;

/**
 * Positions the wallet workers keep between batches by default, all of them together (each its share: a worker folds
 * its share of the wallets): packed (positionTable.ts), about 210 bytes each (21 MiB, in typed arrays outside the
 * collected heap; as a Map of objects it was about 50 MiB of the heap). Positions of batches not yet written are kept
 * past it.
 */
export const POSITION_CACHE = 100_000;

/**
 * Wallet workers a fold starts when no `--workers` says (defaultWalletWorkers.ts): every core but the main thread's
 * and the capture reader's, at most this many. The main thread derives for all of them, and at 1M fills a worker was
 * busy 0.41 of the time the main thread was (CPU profiles, one worker): past a few, workers would wait on it and add
 * only their per-batch cost and their heaps.
 */
export const MAX_DEFAULT_WALLET_WORKERS = 4;

/**
 * A wallet worker's old space: left alone, V8 lets a worker's heap grow to several times its live data before
 * collecting (400 MiB for both workers at 10M fills). Its live data is a batch or two, and the emitted index keys;
 * the position cache (POSITION_CACHE positions) lives in typed arrays.
 */
export const WALLET_WORKER_OLD_SPACE_MB = 256;

/**
 * The capture reader's old space: its live data is a batch or two; left alone, V8 lets the heap grow to several
 * times that.
 */
export const READER_OLD_SPACE_MB = 128;

/**
 * How far past its live data a heap may grow before V8 collects it (boundHeapGrowth), in percent. Measured on the
 * first 3.12 M fills of the 10M era capture: anonymous peak 1,079-1,120 MiB left alone, 784 at 50, 743 at 30, 723 at
 * 20, the fold no slower; at 1M fills 520 MiB against 667-685 for up to 5-8% more time (bench/README: the heaps'
 * growth bounded).
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * Market records per cache of the fold's registry before a trim ages them (createMarketRegistry.ts: two generations,
 * so at most twice this). The main thread's heap grew with the markets cached (about 1.3 KiB each, 73k markets at
 * 10M fills); 10k a generation keeps it bounded as the 20k of one generation did, while the markets trading stay.
 */
export const MARKET_CACHE_LIMIT = 10_000;

// Releases of the state map (createReleasePolicy.ts).

/** Events between releases at the latest. */
export const RELEASE_EVERY_EVENTS = 500_000;
/** The resident memory no commit is to take the process past (the target is a 1.25 GiB peak). */
export const RELEASE_RSS_BUDGET_BYTES = 1280 * 1024 ** 2;
/** The map's resident pages allowed between releases however much the heaps take. */
export const MIN_MAP_BYTES = 256 * 1024 ** 2;

// The event log.

/**
 * Texts of ids the log's dictionary keeps per space (idDictionary.ts), a power of two: a frame decoded names its ids
 * by text, and the ids a batch names repeat; the dictionary itself holds only the values, off the heap.
 */
export const LOG_ID_TEXT_CACHE = 1 << 16;

/** The active segment is sealed when the next frame would take it past this size (EventLogOptions.segmentBytes). */
export const LOG_SEGMENT_BYTES = 64 * 1024 * 1024;
/** What a log reader reads ahead at once. */
export const LOG_READ_BUFFER_BYTES = 1024 * 1024;
/**
 * Loading the dictionary reads only each frame's definitions: a small window, so it does not read ahead 1 MiB a frame.
 */
export const LOG_DEFINITIONS_BUFFER_BYTES = 64 * 1024;

// The board's rollup.

/** Positions read per step: whole wallets, so a step's results and rows are complete. */
export const ROLLUP_STEP_POSITIONS = 20_000;
/** Board table writes per transaction: a chunk holds its writes in memory until then. */
export const BOARD_CHUNK_WRITES = 50_000;

// Reading.

/** Texts of ids a state reader keeps per space: the ids a page of fills names repeat (wallets, markets, parties). */
export const ID_TEXT_CACHE = 100_000;
/**
 * Decimal token ids kept: the API converts the same few thousand ids over and over; the cap bounds memory, and
 * clearing when full is cheaper and simpler than LRU bookkeeping for a cache whose misses cost one BigInt conversion.
 */
export const DECIMAL_CACHE_LIMIT = 100_000;

// Backfill (engine/README.md, Backfill).

/**
 * How far behind its source (in blocks) a state backfills rather than folds live: about two days of Polygon's
 * 2-second blocks. A state that holds nothing always backfills.
 */
export const BACKFILL_BEHIND_BLOCKS = 100_000;
/**
 * The hand-off's sort: the entries of the working table one run holds in memory before it is written to a file
 * (about 1.3 M positions of ~100 bytes, packed: the run takes its bytes plus 12 a position, off the collected heap).
 */
export const HANDOFF_RUN_BYTES = 128 * 1024 ** 2;
/**
 * The working table's entries the hand-off reads between two releases of the state map. Its leaf pages lie all over
 * the file, and a fault maps more than the page asked for: at 10M fills a scan of 128 MiB of entries took the map
 * from 47 to 1,174 MiB, even with MDB_NORDAHEAD.
 */
export const HANDOFF_SCAN_BYTES = 16 * 1024 ** 2;
/** The merge's read buffers, all runs together (each gets its share, at least 64 KiB, at most 1 MiB). */
export const HANDOFF_MERGE_BYTES = 64 * 1024 ** 2;
/**
 * Positions the hand-off puts per transaction (dirty pages are malloc'd until the commit). A commit costs about 15 ms
 * while the load takes the working table's freed pages (LMDB saves its free list; an earlier load took 20.0 s at
 * 10,000 a commit, 11.4 at 100,000): loading the 5.93 M positions of the 10M demo took 11.8 s at 30,000 a commit, 9.5
 * at 100,000, 8.9 at 300,000, the process's peak RSS (617 MiB, the collect's) unmoved by the load.
 */
export const HANDOFF_COMMIT_WRITES = 300_000;
