// The OpenAPI 3.1 document of the routes, built from the same typebox schemas the tests validate answers with.
import type { QueryParam } from './query/queryParams.js';
import { ErrorSchema } from './schemas/answerSchemas.js';

export interface RouteDoc {
  tag: string;
  summary: string;
  query: QueryParam[];
  answer: object;
}

export function openApiDocument(routes: Array<{ pattern: string; doc: RouteDoc }>, version: string): object {
  const paths: Record<string, object> = {};
  for (const { pattern, doc } of routes) {
    const path = pattern.replace(/:([A-Za-z]+)/g, '{$1}');
    const pathParameters = [...pattern.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({
      name, in: 'path', required: true,
      schema: name === 'wallet' ? { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } : { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' },
    }));
    paths[path] = {
      get: {
        tags: [doc.tag], summary: doc.summary, security: [{ bearer: [] }],
        parameters: [...pathParameters, ...doc.query.map((q) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: q.schema }))],
        responses: {
          200: { description: 'the answer', content: { 'application/json': { schema: doc.answer } } },
          400: { description: 'a bad parameter, named in the text', content: { 'application/json': { schema: ErrorSchema } } },
          401: { description: 'unknown or revoked API key', content: { 'application/json': { schema: ErrorSchema } } },
          429: { description: 'rate limit: 600 requests a minute; retry in N s', content: { 'application/json': { schema: ErrorSchema } } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'tally', version: '1.0.0', description: `Wallet and market analytics of the venue (server ${version}).` },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
