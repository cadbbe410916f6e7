// Which host names a client metadata document may be fetched from (SPEC §8.1): public addresses
// only. IP literals are parsed, never matched by string prefixes, so every notation of one address
// (IPv6 compressions, embedded dotted quads, IPv4 inside IPv6) is judged the same. Pure.

/** The four octets of a dotted quad (as the URL parser normalises IPv4 hosts), or null. */
export function parseIPv4(text: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 address in any textual form (RFC 4291 §2.2), or null. */
export function parseIPv6(text: string): number[] | null {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.split("::").length > 2) return null;
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const groups = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] as string;
      // A dotted quad may only end the address, where it stands for the last two groups.
      if (piece.includes(".")) {
        const v4 = i === pieces.length - 1 ? parseIPv4(piece) : null;
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const front = groups(head as string);
  const back = tail === null ? [] : groups(tail);
  if (!front || !back) return null;
  if (tail !== null && head!.includes(".")) return null;
  if (tail === null) return front.length === 8 ? front : null;
  const missing = 8 - front.length - back.length;
  return missing >= 1 ? [...front, ...new Array<number>(missing).fill(0), ...back] : null;
}

/**
 * Loopback, unspecified, private, shared (CGNAT), link-local, benchmarking, documentation,
 * IETF-reserved, multicast and reserved IPv4 ranges: none is a public server's.
 */
export function isNonPublicIPv4([a, b, c]: number[]): boolean {
  if (a === undefined || b === undefined || c === undefined) return true;
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b < 128) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  );
}

const v4Of = (hi: number, lo: number): number[] => [hi >> 8, hi & 255, lo >> 8, lo & 255];

/**
 * Public IPv6 is global unicast (2000::/3) outside its documentation, ORCHID and Teredo blocks;
 * forms that carry an IPv4 address (IPv4-mapped, -compatible and -translated, NAT64 64:ff9b::/96,
 * 6to4 2002::/16) are as public as the IPv4 address they carry. Everything else (loopback,
 * unique-local, link-local, site-local fec0::/10, multicast, local NAT64 64:ff9b:1::/48) is not.
 */
export function isNonPublicIPv6(g: number[]): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible; :: and ::1 fall here as 0.0.0.0/0.0.0.1), ::ffff:0:a.b.c.d (translated).
  if (zeroTo(5) && (g5 === 0xffff || g5 === 0)) return isNonPublicIPv4(v4Of(g6, g7));
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return isNonPublicIPv4(v4Of(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isNonPublicIPv4(v4Of(g6, g7));
  if (g0 === 0x2002) return isNonPublicIPv4(v4Of(g1, g2));
  if ((g0 & 0xe000) !== 0x2000) return true;
  if (g0 === 0x2001 && (g1 === 0x0db8 || g1 === 0 || (g1 & 0xffe0) === 0x0020 || (g1 & 0xfff0) === 0x0010)) return true;
  // 3fff::/20, the second documentation block (RFC 9637).
  return g0 === 0x3fff && g1 < 0x1000;
}

/**
 * Whether a URL's host name may not be fetched on a public server: an IP literal that is not a
 * public address, a name with a trailing dot (`localhost.` is `localhost` to a resolver, and the
 * name checks below would miss it), a single label, or a name that only means something inside a
 * network. Names that resolve to such addresses are stopped by the platform: Cloudflare's
 * outbound fetch reaches only the public Internet.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host.startsWith("[") || host.endsWith("]")) {
    const groups = host.startsWith("[") && host.endsWith("]") ? parseIPv6(host.slice(1, -1)) : null;
    return groups === null || isNonPublicIPv6(groups);
  }
  const v4 = parseIPv4(host);
  if (v4) return isNonPublicIPv4(v4);
  // A bare IPv6 literal (as a caller may pass one without brackets).
  if (host.includes(":")) {
    const groups = parseIPv6(host);
    return groups === null || isNonPublicIPv6(groups);
  }
  if (host.endsWith(".") || !host.includes(".")) return true;
  return host === "localhost" || /\.(localhost|local|internal|lan|home\.arpa|intranet|corp|private)$/.test(host);
}
