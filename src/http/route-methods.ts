import { TrieRouter } from "hono/router/trie-router";

interface RouteEntry {
  method: string;
  path: string;
}

/**
 * The methods the app's routes answer at a path (for a 405's Allow header), read from the
 * router's own table so a route added anywhere is covered. Middleware (`ALL`) does not count;
 * HEAD goes with GET, as the router serves it.
 */
export function routeMethods(routes: () => readonly RouteEntry[]): (path: string) => string[] {
  let table: { router: TrieRouter<string>; methods: string[] } | null = null;
  return (path) => {
    // Built on first use: every route is registered by then.
    if (table === null) {
      const router = new TrieRouter<string>();
      const methods = new Set<string>();
      for (const r of routes()) {
        if (r.method === "ALL") continue;
        router.add(r.method, r.path, r.method);
        methods.add(r.method);
      }
      table = { router, methods: [...methods] };
    }
    const { router, methods } = table;
    const allowed = methods.filter((m) => router.match(m, path)[0].length > 0);
    if (allowed.includes("GET") && !allowed.includes("HEAD")) allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
    return allowed;
  };
}
