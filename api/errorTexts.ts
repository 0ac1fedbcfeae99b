// The spec's error texts (interface-spec.txt sections 4 and 7, DESIGN.md section 5), in one place.

export const ERROR = {
  unauthorized: 'unknown or revoked API key',
  notFound: 'not found',
  badWallet: 'wallet must be 0x plus 40 hex',
  badConditionId: 'conditionId must be 0x plus 64 hex',
  methodNotAllowed: 'only GET is supported',
  bodyNotAccepted: 'request bodies are not accepted',
  urlTooLong: 'the URL is too long (at most 4096 characters)',
  headersTooLarge: 'the request headers are too large (at most 8192 bytes)',
  internal: 'internal error',
} as const;

/** Spec 7's 429 form. */
export function rateLimitError(retryAfterSeconds: number): string {
  return `rate limit: 600 requests a minute; retry in ${retryAfterSeconds} s`;
}
