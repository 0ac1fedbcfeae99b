// What each route is, for the OpenAPI document and the server: tag, summary, query parameters (the schemas the
// server validates requests with) and the answer's schema.
import Type from 'typebox';
import type { RouteDoc } from './openApiDocument.js';
import { choiceParam, integerParam, textParam } from './query/queryParams.js';
import {
  ClosedPositionsAnswer, HealthAnswer, OpenPositionsAnswer, RawPositionsAnswer, WalletTradesAnswer,
} from './schemas/answerSchemas.js';

const CONDITION = '0x[0-9a-fA-F]{64}';

const limit = (max: number, fallback: string) => integerParam('limit', `rows, 1 to ${max} (out of range is clamped), default ${fallback}`);
const offset = integerParam('offset', 'rows to skip', { minimum: 0 });
const category = textParam('category', 'one of the nine categories, or `other` for markets in none (any letter case)');
const text = textParam('q', 'only markets whose question, or the row\'s outcome name, contains the text (any letter case)');

export const routeDocs = {
  health: { tag: 'Health', summary: 'The folded block, the lag behind the source and the log size', query: [], answer: HealthAnswer },
  walletPositions: {
    tag: 'Wallets',
    summary: 'A wallet\'s positions: raw (no status), open or closed. The raw form answers every position of the wallet '
      + '(both outcomes of each market it touched), narrowed only by `conditions`: it ignores limit, offset, category and q',
    answer: Type.Union([RawPositionsAnswer, OpenPositionsAnswer, ClosedPositionsAnswer]),
    query: [
      choiceParam('status', '`open` or `closed`; omitted selects the raw form', ['open', 'closed']),
      ...[limit(2500, '100'), offset, category, text].map((param) => ({ ...param, description: `${param.description}; open and closed forms only` })),
      textParam('conditions', 'raw form: condition ids, comma separated, no spaces', `^${CONDITION}(,${CONDITION})*$`,
        'conditions must be condition ids (0x plus 64 hex), comma separated'),
      choiceParam('sort', 'closed form: `exit` (latest exit first, default) or `pnl`', ['exit', 'pnl']),
    ],
  },
  closedPositions: {
    tag: 'Wallets', summary: 'A wallet\'s closed positions', answer: ClosedPositionsAnswer,
    query: [limit(2500, '100'), offset, category, text, choiceParam('sort', '`exit` (latest exit first, default) or `pnl`', ['exit', 'pnl'])],
  },
  walletTrades: {
    tag: 'Wallets', summary: 'A wallet\'s trades, newest first', answer: WalletTradesAnswer,
    query: [
      limit(500, '100, 300 on a search'),
      // A search covers the whole history in one answer: it ignores the cursor and the market (spec 4.2).
      { ...textParam('before', 'the previous page\'s `next`: ts,block,logIndex; ignored with q', '^\\d{1,12},\\d{1,12},\\d{1,9}$', 'before must be a cursor ts,block,logIndex'), ignoredWith: 'q' },
      { ...textParam('market', 'one market\'s trades (condition id); ignored with q', `^${CONDITION}$`, 'market must be a condition id'), ignoredWith: 'q' },
      textParam('q', 'search over the whole history: market question or outcome; one answer, no cursor'),
    ],
  },
  openApi: { tag: 'Health', summary: 'This document', query: [], answer: Type.Object({ openapi: Type.String() }) },
} satisfies Record<string, RouteDoc>;
