// The state's named databases (openStateStore.ts opens one for each), apart from the store so that what names a
// database (a write, a checksum entry) need not import the store.
export const STATE_DBS = [
  'meta',
  'positions',
  'backfillPositions',
  'marketWallets',
  'markets',
  'marketMarks',
  'tokens',
  'negRiskEvents',
  'pools',
  'feedAnswers',
  'fills',
  'walletFills',
  'marketFills',
  'walletFillEpochs',
  'marketFillEpochs',
  'walletMoves',
  'blocks',
  'ids',
  'idsByValue',
  'boardResults0',
  'boardResults1',
  'boardRows0',
  'boardRows1',
  'tagRuns',
] as const;
export type StateDbName = (typeof STATE_DBS)[number];
