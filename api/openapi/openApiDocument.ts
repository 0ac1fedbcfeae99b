// The OpenAPI 3.1 document of the route table, built from the same typebox schemas the tests validate answers with.
import { ErrorSchema } from '../schemas/answerSchemas.js';
import { assert } from '../../engine/assert.js';
import { ERROR, inFlightError, limitsTableFullError, rateLimitError } from '../errorTexts.js';
import type { RateLimits } from '../limits/loadRateLimits.js';
import { CONDITION_ID } from '../query/readQuery.js';
import type { Route } from '../routes/route.js';
import type { QuerySpec } from '../query/queryParams.js';

const json = { 'application/json': { schema: ErrorSchema } };

/** Each path parameter's form. */
const PATH_SCHEMAS: Record<string, object> = {
  wallet: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
  conditionId: { type: 'string', pattern: `^${CONDITION_ID}$` },
  eventSlug: { type: 'string', minLength: 1 },
};

/** The 429's texts under the server's global limits (config.json's rateLimits; keys it names may differ). */
function tooManyDescription(rateLimits: RateLimits): string {
  const limits = rateLimits.limits;
  const texts =
    limits === null
      ? 'no limits are set for most keys (config.json), but a key may have its own'
      : `${rateLimitError(limits.perMinute, 'N')}, or ${inFlightError(limits.inFlight, limits.streams)}`;
  return `${texts}. The Retry-After header gives the seconds to wait`;
}

/** The 503 of every route that reads the state, while a backfill catches up (api/readCatchUp.ts). */
const CATCHING_UP =
  'catching up: block X of Y, about N min left: the fold is backfilling from far behind, and the state is not ' +
  'served until its hand-off (Retry-After: the time left, 5 to 60 s; /v1/health tells the progress)';

/** The 503 of every limited route for a key new to a server counting all the keys it has room for. */
const TABLE_FULL = `${limitsTableFullError('N')} (Retry-After: when the first counted key goes a minute quiet)`;

const TAG_TEXTS: Record<string, string> = {
  Wallets: "A wallet's positions, trades, stats, categories, tags and profile, as of the served block.",
  Markets: "A market's identity, traders, holders and trades; search, events, and the wallets busiest events draw.",
  Leaderboard: 'The board of every wallet by PnL, volume or ROI, for the lifetime or a window, as of its rollup.',
  'Crypto Strikes':
    "The venue's crypto Up/Down rounds: strike and close from the price feeds, and the market's resolution.",
  Health: 'Whether the server is current and ready, and this document.',
  'Data API shapes':
    "The venue's public Data API at its own paths, in its shapes and with its parameters, so its clients point " +
    "here by changing their base URL (and sending a key). The figures are tally's, mapped field by field in " +
    "docs/venue-api.md; each answer's block is in its X-Tally-Block header, and a list that goes on names its next " +
    'page in X-Next-Cursor and Link.',
};

/** What a route claimed by its parameters answers, said in the operation of the route whose path it shares. */
function claimedText(claimer: Route): string {
  const names = claimer.claimedBy!.map((name) => `\`${name}\``).join(', ');
  const parameters = Object.entries(claimer.query)
    .map(([name, q]) => `\`${name}\` (${q.description})`)
    .join('; ');
  return `A request naming any of ${names} is ${claimer.operationId} instead: ${claimer.summary} (tag ${claimer.tag}), its parameters ${parameters}.`;
}

/** The document's form as its route declares it: the OpenAPI version names the rest. */
export interface OpenApiDocument {
  openapi: string;
  [part: string]: unknown;
}

export function openApiDocument(routes: readonly Route[], version: string, rateLimits: RateLimits): OpenApiDocument {
  const paths: Record<string, object> = {};
  const tooMany = tooManyDescription(rateLimits);
  for (const doc of routes) {
    // A route claimed by its parameters is described inside the operation of the other route of its path.
    if (doc.claimedBy !== undefined) continue;
    const claimers = routes.filter((route) => route.claimedBy !== undefined && route.pattern === doc.pattern);
    const { pattern, whileCatchingUp } = doc;
    const errors = { ...doc.errors };
    const unavailable = [errors[503], whileCatchingUp ? undefined : CATCHING_UP, doc.keyless ? undefined : TABLE_FULL];
    if (unavailable.some((text) => text !== undefined)) {
      errors[503] = unavailable.filter((text) => text !== undefined).join('; or ');
    }
    const path = pattern.replace(/:([A-Za-z]+)/g, '{$1}');
    const pathParameters = [...pattern.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: PATH_SCHEMAS[name!],
    }));
    const queryParameter = ([name, q]: [string, QuerySpec[string]], prefix = '') => ({
      name,
      in: 'query',
      required: false,
      description: prefix + q.description,
      schema: q.schema,
    });
    const own = new Set(Object.keys(doc.query));
    paths[path] = {
      get: {
        operationId: doc.operationId,
        tags: [doc.tag, ...claimers.map((claimer) => claimer.tag)],
        summary: doc.summary,
        ...(claimers.length === 0
          ? {}
          : {
              description: claimers.map(claimedText).join(' '),
              'x-tally-claimed-by': claimers.map(({ operationId, claimedBy }) => ({
                operationId,
                parameters: claimedBy,
              })),
            }),
        security: [{ bearer: [] }],
        parameters: [
          ...pathParameters,
          ...Object.entries(doc.query).map((entry) => queryParameter(entry)),
          ...claimers.flatMap((claimer) =>
            Object.entries(claimer.query)
              .filter(([name]) => !own.has(name))
              .map((entry) => queryParameter(entry, `(${claimer.operationId}) `)),
          ),
        ],
        responses: {
          200: {
            description: 'the answer',
            content: {
              'application/json': {
                schema:
                  claimers.length === 0
                    ? doc.answer
                    : { oneOf: [doc.answer, ...claimers.map((claimer) => claimer.answer)] },
              },
            },
          },
          400: { description: 'a bad parameter, named in the text, or a request with a body', content: json },
          401: {
            description: 'unknown or revoked API key (a missing key too; the WWW-Authenticate header tells them apart)',
            content: json,
          },
          405: {
            description:
              'only GET is supported (HEAD answers as GET without the body, OPTIONS as a CORS preflight; ' +
              'any other method, on any path)',
            content: json,
          },
          414: { description: ERROR.urlTooLong, content: json },
          429: { description: tooMany, content: json },
          431: { description: ERROR.headersTooLarge, content: json },
          ...Object.fromEntries(
            Object.entries(errors).map(([status, description]) => [status, { description, content: json }]),
          ),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'tally',
      version: '1.0.0',
      description: `Wallet and market analytics of the venue (server ${version}).`,
      // The service is not open source: an SPDX reference to a license of its own (SPDX 2.3, annex D).
      license: { name: 'Proprietary', identifier: 'LicenseRef-tally-proprietary' },
    },
    // Relative: the paths resolve against wherever the document was read from, behind a proxy too (OAS 3.1, 4.8.5).
    servers: [{ url: '/', description: 'the server this document was read from' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    // The routes' tags in the order they first come, each with what its group is.
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => {
      const description = TAG_TEXTS[name];
      assert(description !== undefined, 'every tag of the route table is described');
      return { name, description };
    }),
    paths,
  };
}
