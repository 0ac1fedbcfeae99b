// uWebSockets.js says only that a listen failed, never why. The same bind by Node's own server names the cause
// (the port in use, an address that is not this machine's), which the user can act on.
import { createServer } from 'node:net';
import { EnvironmentError } from '../engine/environmentError.js';

const CAUSES: Record<string, string> = {
  EADDRINUSE: 'the port is in use (another server listens on it)',
  EADDRNOTAVAIL: "the address is not one of this machine's",
  EACCES: 'permission denied (ports below 1024 need privileges)',
};

export function listenError(host: string, port: number): Promise<EnvironmentError> {
  return new Promise((resolve) => {
    const probe = createServer();
    const fail = (cause: string) => resolve(new EnvironmentError(`cannot listen on ${host}:${port}: ${cause}`));
    probe.once('error', (error: NodeJS.ErrnoException) => fail(CAUSES[error.code ?? ''] ?? error.message));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => fail('the HTTP library refused it')));
  });
}
