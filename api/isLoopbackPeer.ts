// Whether a request comes from this machine and was not forwarded: /metrics answers such requests without a key.
// A reverse proxy on the same host connects from loopback too, so a request carrying a forwarding header
// (X-Forwarded-For, Forwarded) counts as remote.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';

const IPV4_LOOPBACK_FIRST_BYTE = 127;

/** 127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into IPv6 (::ffff:127.x.y.z). */
function isLoopbackAddress(address: Uint8Array): boolean {
  if (address.length === 4) return address[0] === IPV4_LOOPBACK_FIRST_BYTE;
  if (address.length !== 16) return false;
  for (let i = 0; i < 10; i++) if (address[i] !== 0) return false;
  if (address[10] === 0 && address[11] === 0)
    return address.subarray(12, 15).every((b) => b === 0) && address[15] === 1;
  return address[10] === 0xff && address[11] === 0xff && address[12] === IPV4_LOOPBACK_FIRST_BYTE;
}

export function isLoopbackPeer(res: HttpResponse, req: HttpRequest): boolean {
  if (req.getHeader('x-forwarded-for') !== '' || req.getHeader('forwarded') !== '') return false;
  return isLoopbackAddress(new Uint8Array(res.getRemoteAddress()));
}
