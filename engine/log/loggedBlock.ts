// A block as the log holds it: its events, plus how many ids of each dictionary the log had named once the
// block was written (the fold records the new ones' definitions with the block's state).
import type { BlockEvents } from '../chain/chainEvent.js';
import type { IdCounts } from './idDictionary.js';

export interface LoggedBlock extends BlockEvents {
  ids: IdCounts;
}
