// Reads an off-chain source over HTTP (metadata, profiles). Whatever goes wrong, an unreachable host, a refused
// connection, an error status, a time-out, is the user's to fix: one CommandError line naming the URL.
import { CommandError } from '../engine/commandError.js';

const TIMEOUT_MS = 60_000;

export async function fetchText(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = (error as Error).name === 'TimeoutError' ? `no answer in ${TIMEOUT_MS / 1000} s` : cause?.code ?? cause?.message ?? (error as Error).message;
    throw new CommandError(`cannot fetch ${url}: ${reason}`);
  }
  if (!response.ok) throw new CommandError(`cannot fetch ${url}: HTTP ${response.status} ${response.statusText}`.trimEnd());
  return response.text();
}
