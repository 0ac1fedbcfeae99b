// The HTTP front (uWebSockets.js): /v1 routes over the memory-mapped state. Every answer is JSON; every error
// is { "error": text }. The native binary must load: the JS fallback is refused, not tolerated.
import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { isValidApiKey } from '../engine/offchain/apiKeys.js';
import { ApiError } from './apiError.js';
import { ERROR } from './errorTexts.js';
import type { RouteContext } from './routeContext.js';
import { healthRoute } from './routes/healthRoute.js';

export interface Server {
  port: number;
  close(): void;
}

function assertNativeUws(): void {
  const loaded = (process.report.getReport() as { sharedObjects?: string[] }).sharedObjects ?? [];
  if (!loaded.some((path) => path.includes('uws_'))) {
    throw new Error('uWebSockets.js native binary did not load (JS fallback in use); refusing to serve');
  }
}

function send(res: HttpResponse, status: number, body: unknown): void {
  res.cork(() => {
    res.writeStatus(String(status)).writeHeader('content-type', 'application/json; charset=utf-8').end(JSON.stringify(body));
  });
}

function bearerKey(req: HttpRequest): string {
  const header = req.getHeader('authorization');
  return header.startsWith('Bearer ') ? header.slice(7).trim() : '';
}

export function createServer(ctx: RouteContext, options: { host: string; port: number }): Promise<Server> {
  assertNativeUws();
  const app: TemplatedApp = uWS.App();
  const route = (pattern: string, handler: (req: HttpRequest) => unknown) => {
    app.get(pattern, (res, req) => {
      try {
        if (!isValidApiKey(ctx.offchain, bearerKey(req))) throw new ApiError(401, ERROR.unauthorized);
        send(res, 200, handler(req));
      } catch (error) {
        if (error instanceof ApiError) send(res, error.status, { error: error.message });
        else {
          console.error(error);
          send(res, 500, { error: 'internal error' });
        }
      }
    });
  };
  route('/v1/health', () => healthRoute(ctx));
  app.any('/*', (res, req) => {
    const get = req.getMethod() === 'get';
    send(res, get ? 404 : 405, { error: get ? ERROR.notFound : ERROR.methodNotAllowed });
  });
  return new Promise((resolve, reject) => {
    app.listen(options.host, options.port, (socket) => {
      if (!socket) return reject(new Error(`cannot listen on ${options.host}:${options.port}`));
      resolve({
        port: uWS.us_socket_local_port(socket),
        close: () => (app as unknown as { close(): void }).close(),
      });
    });
  });
}
