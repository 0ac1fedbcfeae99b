// A bench's load asks far more than a key's 600 requests a minute: the data directory's config.json lifts every
// key's limits (`"rateLimits": false`), its other fields kept.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function liftKeyLimits(dataDir: string): void {
  const file = join(dataDir, 'config.json');
  const config = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(file, JSON.stringify({ ...config, rateLimits: false }, null, 2) + '\n');
}
