// The message between the fold's main thread and a wallet-fold worker.

export interface WalletFoldTask {
  stateDir: string;
  /** The partition's position events in chain order, as records (positionRecords), transferred. */
  records: ArrayBuffer;
  /** How many f64s of `records` they fill. */
  recordLength: number;
  /** Transfer basis slots: Int32 ready flags then Float64 values (see transferSlots). */
  slots: SharedArrayBuffer;
  slotCount: number;
  /** Changes when the main thread abandons a batch: the worker's cache may then hold positions never committed. */
  epoch: number;
}

/**
 * Per block: the positions it touched, flat [key, bytes, key, bytes, ...] sorted by key, and the market ->
 * wallet index keys of positions stored for the first time (keys as stateKeys builds them: latin1 strings of ids).
 */
export type WalletFoldResult = Array<[block: number, positions: Array<string | Uint8Array>, marketWallets: string[]]>;
