// What identifies a table row (its data-key): the tests find the API's rows in the tables by it.
export const tradeKey = (row) => `${row.ts},${row.block},${row.logIndex},${row.wallet}`;
export const positionKey = (row) => row.tokenId;
