// If-None-Match (RFC 9110 13.1.2): `*` or a list of entity tags, weak ones compared weakly. For the answers that
// carry an ETag (the tags run) and the pages' files.
export function matchesEtag(header: string, etag: string): boolean {
  if (header === '') return false;
  return header.split(',').some((entry) => {
    const tag = entry.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
