// GET /v1/openapi.json: the route table's OpenAPI document, made once per server (it names the server's version
// and rate limits). Keyless, and answered while the state catches up: it holds no data.
import Type from 'typebox';
import { defineRoute } from '../routes/route.js';
import type { OpenApiDocument } from './openApiDocument.js';

export function openApiRoute(document: OpenApiDocument) {
  return defineRoute({
    pattern: '/v1/openapi.json',
    operationId: 'getOpenApi',
    tag: 'Health',
    summary: 'This document',
    query: {},
    answer: Type.Object({ openapi: Type.String() }),
    keyless: true,
    whileCatchingUp: true,
    open: () => document,
    handle: (opened) => opened,
  });
}
