// Query parameters: every bad one is refused with a 400 that names it; limits the spec clamps are clamped.
import { ApiError } from '../apiError.js';
import type { RouteRequest } from '../createServer.js';
import { ERROR } from '../errorTexts.js';

/** An optional integer; null when absent. */
export function integerParam(query: URLSearchParams, name: string): number | null {
  const text = query.get(name);
  if (text === null || text === '') return null;
  if (!/^-?\d{1,15}$/.test(text)) throw new ApiError(400, `${name} must be an integer`);
  return Number(text);
}

/** An integer clamped into [min, max], `fallback` when absent. */
export function clampedParam(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const value = integerParam(query, name);
  return value === null ? fallback : Math.min(max, Math.max(min, value));
}

/** A non-negative offset. */
export function offsetParam(query: URLSearchParams): number {
  const value = integerParam(query, 'offset');
  if (value !== null && value < 0) throw new ApiError(400, 'offset must be 0 or more');
  return value ?? 0;
}

export const WALLET_PATTERN = /^0x[0-9a-fA-F]{40}$/;
export const CONDITION_PATTERN = /^0x[0-9a-fA-F]{64}$/;

/** The {wallet} path parameter, in any letter case, answered in lowercase. */
export function walletParam(request: RouteRequest): string {
  const wallet = request.parameters[0] ?? '';
  if (!WALLET_PATTERN.test(wallet)) throw new ApiError(400, ERROR.badWallet);
  return wallet.toLowerCase();
}
