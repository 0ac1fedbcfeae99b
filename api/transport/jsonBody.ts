// An answer a route has already written as JSON bytes (the fills feed's rows, written by jsonBytes.ts): sent as it
// is, never through JSON.stringify. `T` is the answer the bytes spell, for the route table's type check
// (api/routes/route.ts); it is not kept.
export class JsonBody<T = unknown> {
  declare readonly answer?: T;
  constructor(readonly json: Buffer) {}
}
