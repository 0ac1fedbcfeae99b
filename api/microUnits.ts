// The API edge's one conversion of money and shares: the state counts both in integer micro-units (6 decimals,
// the collateral's and the outcome tokens' own), answers show them as numbers divided by MICRO, here and only here.
export const MICRO = 1_000_000;
