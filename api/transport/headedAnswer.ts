// An answer with headers of its own beside the body (the Data API shapes' block and next cursor: their bodies are
// bare arrays). The headers are cached with the body, so a cached answer carries them too. `T` is the answer the
// body spells, for the route table's type check (api/routes/route.ts).
import type { JsonBody } from './jsonBody.js';

export class HeadedAnswer<T = unknown> {
  constructor(
    readonly body: T | JsonBody<T>,
    readonly headers: Readonly<Record<string, string>>,
  ) {}
}
