// What the OpenAPI document says of each route: tag, summary, query parameters and the answer's schema.
import Type from 'typebox';
import type { RouteDoc } from './openApiDocument.js';
import {
  ClosedPositionsAnswer, HealthAnswer, OpenPositionsAnswer, RawPositionsAnswer, WalletTradesAnswer,
} from './schemas/answerSchemas.js';

const limit = (max: number, fallback: number) => ({
  name: 'limit', description: `rows, 1 to ${max} (out of range is clamped), default ${fallback}`, schema: Type.Integer(),
});
const offset = { name: 'offset', description: 'rows to skip, 0 or more', schema: Type.Integer({ minimum: 0 }) };
const category = { name: 'category', description: 'one of the nine categories, or `other` for markets in none', schema: Type.String() };
const text = { name: 'q', description: 'only markets whose question, or the row\'s outcome name, contains the text', schema: Type.String() };

export const routeDocs = {
  health: { tag: 'Health', summary: 'The folded block, the lag behind the source and the log size', query: [], answer: HealthAnswer },
  walletPositions: {
    tag: 'Wallets', summary: 'A wallet\'s positions: raw (no status), open or closed', answer: Type.Union([RawPositionsAnswer, OpenPositionsAnswer, ClosedPositionsAnswer]),
    query: [
      { name: 'status', description: '`open` or `closed`; omitted selects the raw form', schema: Type.Union([Type.Literal('open'), Type.Literal('closed')]) },
      limit(2500, 100), offset, category, text,
      { name: 'conditions', description: 'raw form: condition ids, comma separated, no spaces', schema: Type.String() },
      { name: 'sort', description: 'closed form: `exit` (latest exit first, default) or `pnl`', schema: Type.String() },
    ],
  },
  closedPositions: {
    tag: 'Wallets', summary: 'A wallet\'s closed positions', answer: ClosedPositionsAnswer,
    query: [limit(2500, 100), offset, category, text, { name: 'sort', description: '`exit` (default) or `pnl`', schema: Type.String() }],
  },
  walletTrades: {
    tag: 'Wallets', summary: 'A wallet\'s trades, newest first', answer: WalletTradesAnswer,
    query: [
      limit(500, 100),
      { name: 'before', description: 'the previous page\'s `next`: ts,block,logIndex', schema: Type.String({ pattern: '^\\d+,\\d+,\\d+$' }) },
      { name: 'market', description: 'one market\'s trades (condition id)', schema: Type.String() },
      { name: 'q', description: 'search over the whole history: market question or outcome; limit defaults to 300', schema: Type.String() },
    ],
  },
  openApi: { tag: 'Health', summary: 'This document', query: [], answer: Type.Object({ openapi: Type.String() }) },
} satisfies Record<string, RouteDoc>;
