/**
 * Does an If-None-Match header hold `etag`? The one matcher of every public read (RFC 9110
 * §13.1.2): `*` matches any current answer; otherwise any tag of the list matches by weak
 * comparison, so `W/"x"`, `"x"` and `x`'s weak or strong form are the same tag.
 */
export function etagMatches(header: string | null | undefined, etag: string): boolean {
  if (header === null || header === undefined) return false;
  if (header.trim() === "*") return true;
  const wanted = opaqueTag(etag);
  // Tags are quoted and may contain commas, so they are picked out rather than split on commas.
  for (const m of header.matchAll(/(?:W\/)?("[^"]*")/g)) if (m[1] === wanted) return true;
  return false;
}

/** The quoted part of a tag, without its weakness prefix. */
function opaqueTag(etag: string): string {
  return etag.trim().replace(/^W\//, "");
}
