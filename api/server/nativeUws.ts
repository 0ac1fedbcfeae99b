// The uWebSockets.js native binary, as the server needs it: loaded (its JS fallback is refused, not tolerated), and
// silent about itself.
import uWS from 'uWebSockets.js';
import { EnvironmentError } from '../../engine/environmentError.js';

export function assertNativeUws(): void {
  const loaded = (process.report.getReport() as { sharedObjects?: string[] }).sharedObjects ?? [];
  if (!loaded.some((path) => path.includes('uws_'))) {
    throw new EnvironmentError('uWebSockets.js native binary did not load (JS fallback in use); refusing to serve');
  }
}

/**
 * Drops the `uWebSockets: 20` header the library writes on every answer (it names the server's software to
 * anyone). The addon's undocumented `_cfg('silent')` sets its loop's noMark (uWebSockets.js src/addon.cpp, uWS_cfg;
 * uWebSockets src/HttpResponse.h, writeMark); it holds for the whole loop. test/api/httpDetails.test.ts checks it.
 */
export function silenceLibraryMark(): void {
  const cfg = (uWS as unknown as { _cfg?: (key: string) => void })._cfg;
  if (typeof cfg === 'function') cfg('silent');
}
