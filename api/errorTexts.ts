// The spec's error texts (interface-spec.txt sections 4 and 7, DESIGN.md section 5), in one place.

export const ERROR = {
  unauthorized: 'unknown or revoked API key',
  notFound: 'not found',
  badWallet: 'wallet must be 0x plus 40 hex',
  badConditionId: 'conditionId must be 0x plus 64 hex',
  methodNotAllowed: 'only GET is supported',
} as const;
