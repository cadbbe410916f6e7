// Hostile requests for the seeded fuzz (SPEC §7, §8, §12): every request is drawn from the engine's
// PRNG, so one seed always yields the same sequence of requests (only the live values they aim at
// — game id, agents, revision, tokens — come from the run). Families: malformed JSON-RPC, odd
// headers and encodings, oversized and streamed bodies, mutated tool arguments, impersonation of
// another machine's agent, bad key requests, stale and replayed proofs, unknown tokens and random
// game ids.
import type { Rng } from "../../src/engine/random";
import type { Field } from "../../src/engine/types";
import type { TestMachine } from "../support/identity";
import { envelope, LEGACY_VERSIONS, MODERN } from "../support/mcp-wire";

export interface FuzzParty {
  machine: TestMachine;
  token: string;
}

/** What the hostile requests aim at; functions are read when a request is built. */
export interface FuzzTargets {
  /** The Host header clients send (`127.0.0.1:PORT`): signed key requests name it. */
  host: string;
  gameId: string;
  field: Field;
  /** The honest players' agents (targets of impersonation). */
  honestAgents: () => string[];
  /** The honest machines: only their public parts (machine id, public key) are used. */
  honestMachines: Array<Pick<TestMachine, "machineId" | "publicKeyRaw">>;
  /** The newest revision anyone saw. */
  revision: () => number;
  /** A machine with a valid token and a seat of its own: its mutated calls reach the referee. */
  attacker: FuzzParty & { agent: string; staleToken: string; agentSecret: string };
  /** A machine with a valid token that never joined. */
  outsider: FuzzParty;
  /** The identity arguments of a proof join that was already used. */
  spentProof: Record<string, unknown>;
  /** The body of a key request (token mint) that was already used. */
  spentKeyRequest: string;
  /** Body limits (bytes): `/mcp`'s, and that of every other route that reads a body. */
  limits: { mcp: number; api: number };
}

export type Coding = "mcp" | "keys" | "any";

export interface HostileRequest {
  index: number;
  family: string;
  what: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** A body sent as a stream without Content-Length; `holdOpen` keeps it open after the last byte. */
  stream?: { bytes: number; chunk: number; holdOpen: boolean };
  /** How its answer must be coded: JSON-RPC / tool error codes, the key routes' error codes, or any non-5xx. */
  coding: Coding;
  /** How long the answer may take (the fuzz's default otherwise): a body held open waits for the server's body timeout. */
  timeoutMs?: number;
}

type Json = unknown;
type Args = Record<string, Json>;

const WRITE_TOOLS = ["reveal", "commit", "retract"] as const;
const ALL_TOOLS = ["list_games", "join", "observe", "reveal", "commit", "retract", "start_mosaic"] as const;

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[rng.int(items.length)];
}

function hex(rng: Rng, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += "0123456789abcdef"[rng.int(16)];
  return s;
}

function alnum(rng: Rng, n: number): string {
  const abc = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
  let s = "";
  for (let i = 0; i < n; i++) s += abc[rng.int(abc.length)];
  return s;
}

function b64(rng: Rng, bytes: number): string {
  const raw = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) raw[i] = rng.int(256);
  return Buffer.from(raw).toString("base64");
}

/** A value of any JSON type, often at the edges of what a schema allows. */
function junk(rng: Rng, depth = 0): Json {
  switch (rng.int(depth > 2 ? 16 : 20)) {
    case 0: return null;
    case 1: return rng.int(2) === 0;
    case 2: return pick(rng, [0, -1, 1, 2, 3, 511, 512, 513, 8192, 8193]);
    case 3: return pick(rng, [1.5, -0.0001, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, -(2 ** 31), 2 ** 32, 4.9e-324]);
    case 4: return "";
    case 5: return alnum(rng, 1 + rng.int(12));
    case 6: return "x".repeat(pick(rng, [159, 160, 161, 200, 1000, 70_000]));
    case 7: return pick(rng, ["😀".repeat(81), "\u0000", "line\nbreak", "\r\n\t\u001b[2J", "\u202e\u2066", "\ud800", "../../etc/passwd", "<script>alert(1)</script>", "' OR 1=1 --", "${process.env}", "NaN", "Infinity", "1e999", "-0"]);
    case 8: return `msc_${hex(rng, 64)}`;
    case 9: return `m-${hex(rng, 16)}/${alnum(rng, 1 + rng.int(6))}`;
    case 10: return [];
    case 11: return {};
    case 12: return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}') as Json;
    case 13: return pick(rng, ["toString", "hasOwnProperty", "__proto__", "constructor", "valueOf"]);
    case 14: return String(rng.int(1_000_000));
    case 15: return rng.int(2 ** 31);
    case 16: return [junk(rng, depth + 1), junk(rng, depth + 1)];
    case 17: return { [alnum(rng, 4)]: junk(rng, depth + 1) };
    case 18: return Array.from({ length: 1 + rng.int(4) }, () => junk(rng, depth + 1));
    default: return [[rng.int(100), rng.int(2)]];
  }
}

/** A random tile and correct values for some of its cells (the oracle knows the solution). */
function realCells(rng: Rng, field: Field, n: number): Array<[number, number]> {
  const tile = field.tiles[rng.int(field.tiles.length)];
  const start = rng.int(tile.cellIds.length);
  return tile.cellIds.slice(start, start + n).map((c) => [c, field.solution[c]]);
}

/** Plausible, well-formed arguments of a tool, aimed at the attacker's own seat. */
function plausibleArgs(rng: Rng, tool: string, t: FuzzTargets, index: number): Args {
  const base = { game_id: t.gameId, agent: t.attacker.agent, expected_revision: t.revision() };
  const intent = `fz${index}`;
  const G = t.field.G;
  switch (tool) {
    case "list_games": return {};
    case "join": return { game_id: t.gameId, session: pick(rng, ["1", "2", "3", alnum(rng, 4)]), name: "fuzz", model: "fuzz" };
    case "observe": return pick(rng, [{ game_id: t.gameId }, { game_id: t.gameId, agent: t.attacker.agent }, { game_id: t.gameId, rect: [rng.int(G), rng.int(G), 1 + rng.int(30), 1 + rng.int(30)] }, { game_id: t.gameId, full: true }]);
    case "reveal": return { ...base, tile: rng.int(t.field.tiles.length), intent };
    case "commit": return { ...base, cells: rng.int(2) === 0 ? realCells(rng, t.field, 1 + rng.int(8)) : [[rng.int(G * G), rng.int(2)]], intent };
    case "retract": return { ...base, cells: [rng.int(G * G)], intent };
    default: return { kind: pick(rng, ["scatter", "grid", "field"]), G: pick(rng, [5, 1001, 0, -1, 100.5]), seed: alnum(rng, 8) };
  }
}

/** One to three mutations of an argument object: a key dropped, retyped, added, or pushed to a limit. */
function mutate(rng: Rng, args: Args, t: FuzzTargets): Args {
  const out: Args = { ...args };
  const G = t.field.G;
  for (let m = 1 + rng.int(3); m > 0; m--) {
    const keys = Object.keys(out);
    switch (rng.int(12)) {
      case 0: if (keys.length) delete out[pick(rng, keys)]; break;
      case 1: if (keys.length) out[pick(rng, keys)] = junk(rng); break;
      case 2: out[pick(rng, ["extra", "agent_secret", "machine_id", "public_key", "proof", "tags", "harness", "full", "rect", "tile", "__proto__"])] = junk(rng); break;
      case 3: out.cells = Array.from({ length: pick(rng, [0, 513, 600, 8193]) }, (_, i) => [i % (G * G), i % 2]); break;
      case 4: out.cells = [pick(rng, [[-1, 0], [G * G, 1], [2 ** 31, 0], [0, 2], [0, -1], [0], [0, 1, 1], ["0", "1"], [1.5, 0], [null, 0], {}, "0,1"]) as Json]; break;
      case 5: out.expected_revision = pick(rng, [-1, 1.5, 2 ** 53, "3", null, t.revision() + 1000, 0]); break;
      case 6: out.tile = pick(rng, [-1, t.field.tiles.length, 2 ** 31, 1.5, "0", null]); break;
      case 7: out.intent = pick(rng, ["x".repeat(161), "a\u0000b", "multi\nline\nintent", "\u001b[31mred", " ".repeat(300), "😀".repeat(100), `fz-${rng.int(1e9)}`]); break;
      case 8: out.game_id = pick(rng, [`${t.gameId}x`, t.gameId.toUpperCase(), "", "a".repeat(81), "../x", "day-1970-01-01", alnum(rng, 36), `${t.gameId}/`, "g\u00e4me"]); break;
      case 9: out.agent = pick(rng, [...t.honestAgents(), "", "m-0000000000000000/1", `${t.attacker.machine.machineId}/`, `${t.attacker.machine.machineId}/1/2`, t.attacker.machine.machineId, "x".repeat(201)]); break;
      case 10: out.rect = pick(rng, [[0, 0, 0, 0], [-1, 0, 1, 1], [0, 0, G + 1000, 1], [0, 0, 1], [0, 0, 1, 1, 1], "0,0,1,1", [0, 0, 2 ** 31, 2 ** 31]]); break;
      default: out.session = pick(rng, ["", " ", "a/b", "x".repeat(65), "\u00e9", "4", "\u0000"]); break;
    }
  }
  return out;
}

/** A JSON-RPC tools/call (or other method) framed for one era, with the attacker's token or not. */
function mcpRequest(rng: Rng, method: string, params: Args | undefined, auth: string | null, id: Json = 1): { headers: Record<string, string>; body: string } {
  const modern = rng.int(5) < 3;
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  let fullParams = params;
  if (modern) {
    headers["MCP-Protocol-Version"] = MODERN;
    headers["Mcp-Method"] = method;
    if (method === "tools/call" && params && typeof params.name === "string") headers["Mcp-Name"] = params.name;
    fullParams = { ...(params ?? {}), _meta: envelope({ name: "fuzz", version: "1" }) };
  } else if (rng.int(2) === 0) headers["MCP-Protocol-Version"] = pick(rng, LEGACY_VERSIONS);
  if (auth !== null) headers.Authorization = auth;
  const message: Args = { jsonrpc: "2.0", id, method };
  if (fullParams !== undefined) message.params = fullParams;
  return { headers, body: JSON.stringify(message) };
}

function callRequest(rng: Rng, tool: string, args: Args, auth: string | null): { headers: Record<string, string>; body: string } {
  return mcpRequest(rng, "tools/call", { name: tool, arguments: args }, auth);
}

/** An Authorization header value for a request that must not pass as any machine. */
function badAuth(rng: Rng, t: FuzzTargets): string {
  return pick(rng, [
    `Bearer msc_${hex(rng, 64)}`,
    `Bearer ${t.attacker.staleToken}`,
    `Bearer ${alnum(rng, 20)}`,
    "Bearer",
    "Bearer ",
    `bearer msc_${hex(rng, 8)}`,
    `Basic ${b64(rng, 12)}`,
    `Bearer msc_${"a".repeat(8000)}`,
    `Bearer ${t.attacker.token}x`,
    `Bearer ${t.attacker.token.slice(0, -1)}`,
    `Token ${t.attacker.token}`,
  ]);
}

function mcp(index: number, family: string, what: string, framed: { headers: Record<string, string>; body: string }): HostileRequest {
  return { index, family, what, method: "POST", path: "/mcp", headers: framed.headers, body: framed.body, coding: "mcp" };
}

// ---- families -----------------------------------------------------------------------------------

function malformedJsonRpc(rng: Rng, t: FuzzTargets, index: number): HostileRequest {
  const valid = callRequest(rng, "observe", { game_id: t.gameId }, null);
  const headers = valid.headers;
  const bodies: Array<() => [string, string]> = [
    () => ["truncated", valid.body.slice(0, rng.int(valid.body.length))],
    () => ["random bytes", b64(rng, 1 + rng.int(200))],
    () => ["scalar", pick(rng, ["null", "1", "\"x\"", "true", "[]", "{}", ""])],
    () => ["batch", `[${valid.body},${valid.body}]`],
    () => ["empty batch", "[]"],
    () => ["wrong version", valid.body.replace('"2.0"', pick(rng, ['"1.0"', '"2"', "2", "null"]))],
    () => ["odd id", valid.body.replace('"id":1', `"id":${pick(rng, ["{}", "[1]", "1.5", "null", "true", `"${"i".repeat(5000)}"`, "-1", "1e400"])}`)],
    () => ["no method", JSON.stringify({ jsonrpc: "2.0", id: 1 })],
    () => ["odd method", JSON.stringify({ jsonrpc: "2.0", id: 1, method: pick(rng, [7, null, "", "tools/nope", "initialize", "ping", "prompts/list", "logging/setLevel", "resources/subscribe", "__proto__", "constructor", "x".repeat(5000), "completion/complete", "sampling/createMessage"]), params: {} })],
    () => ["odd params", JSON.stringify({ jsonrpc: "2.0", id: 1, method: pick(rng, ["tools/call", "tools/list", "resources/read"]), params: junk(rng) })],
    () => ["deep nesting", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${"[".repeat(pick(rng, [100, 5000, 100_000]))}`],
    () => ["duplicate keys", `{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list","method":"tools/call","params":{"name":"observe","arguments":{"game_id":"${t.gameId}"}}}`],
    () => ["unknown tool", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: pick(rng, ["nope", "", "eval", "start_mosaic ", "OBSERVE"]), arguments: {} } })],
    () => ["arguments not an object", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: pick(rng, ALL_TOOLS), arguments: junk(rng) } })],
    () => ["notification", JSON.stringify({ jsonrpc: "2.0", method: pick(rng, ["notifications/initialized", "notifications/cancelled", "notifications/nope", "tools/call"]), params: { requestId: 1 } })],
    () => ["response object", JSON.stringify({ jsonrpc: "2.0", id: 1, result: { x: 1 } })],
    () => ["huge number", `{"jsonrpc":"2.0","id":${"9".repeat(400)},"method":"tools/list"}`],
  ];
  const [what, body] = pick(rng, bodies)();
  return { index, family: "jsonrpc", what, method: "POST", path: "/mcp", headers, body, coding: "mcp" };
}

function oddHeaders(rng: Rng, t: FuzzTargets, index: number): HostileRequest {
  const tool = rng.int(3) === 0 ? pick(rng, WRITE_TOOLS) : "observe";
  const framed = callRequest(rng, tool, plausibleArgs(rng, tool, t, index), `Bearer ${t.attacker.token}`);
  const h = { ...framed.headers };
  let body: string | Uint8Array = framed.body;
  let method = "POST";
  let path = "/mcp";
  let what: string;
  switch (rng.int(16)) {
    case 0: what = "content-type"; h["Content-Type"] = pick(rng, ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1", "application/jsonx", "", "application/json, text/html", "APPLICATION/JSON"]); break;
    case 1: what = "accept"; h.Accept = pick(rng, ["text/html", "", "*/*", "application/json", "text/event-stream", "image/png", "application/json;q=0"]); break;
    case 2: what = "protocol version"; h["MCP-Protocol-Version"] = pick(rng, ["2024-11-05", "2099-01-01", "", "latest", "2026-07-28, 2025-11-25", "2025-06-18\u00a0"]); break;
    case 3: what = "mcp-method mismatch"; h["Mcp-Method"] = pick(rng, ["tools/list", "initialize", "", "TOOLS/CALL"]); break;
    case 4: what = "mcp-name mismatch"; h["Mcp-Name"] = pick(rng, ["join", "", "x".repeat(300)]); break;
    case 5: what = "origin"; h.Origin = pick(rng, ["https://evil.example", "null", "http://127.0.0.1.evil.example", "file://", "http://localhost:1"]); break;
    case 6: what = "content-encoding"; h["Content-Encoding"] = pick(rng, ["gzip", "br", "deflate", "identity", "compress"]); break;
    case 7: what = "bom and cr"; body = `\ufeff${framed.body}\r\n`; break;
    case 8: what = "utf-16 body"; h["Content-Type"] = "application/json; charset=utf-16"; body = new Uint8Array(Buffer.from(framed.body, "utf16le")); break;
    case 9: { what = "invalid utf-8"; const bytes = Buffer.from(framed.body); const at = 1 + rng.int(bytes.length - 2); body = new Uint8Array(Buffer.concat([bytes.subarray(0, at), Buffer.from([pick(rng, [0xff, 0xc0, 0xed, 0x80])]), bytes.subarray(at)])); break; }
    case 10: what = "method"; method = pick(rng, ["GET", "DELETE", "PUT", "PATCH", "OPTIONS"]); if (method === "GET" || method === "OPTIONS") body = ""; if (method === "OPTIONS") h.Origin = pick(rng, ["https://evil.example", "null"]); break;
    case 11: what = "path"; path = pick(rng, ["/mcp/", "/MCP", "/mcp?x=1", "/mcp#frag", "/mcp;x", "/mcp%00", "//mcp"]); break;
    case 12: what = "long header"; h[`X-${alnum(rng, 6)}`] = "v".repeat(pick(rng, [1000, 8000, 30_000])); break;
    case 13: what = "session id"; h["Mcp-Session-Id"] = pick(rng, [hex(rng, 32), "", "../../", "x".repeat(2000)]); h["Last-Event-ID"] = alnum(rng, 8); break;
    case 14: what = "forwarded"; h["X-Forwarded-Host"] = pick(rng, ["evil.example", "", "localhost:1"]); h["X-Forwarded-Proto"] = pick(rng, ["gopher", "https", ""]); h["CF-Connecting-IP"] = pick(rng, ["1.2.3.4", "::1", "not an ip"]); break;
    default: what = "no content-type"; delete h["Content-Type"]; break;
  }
  if (method === "GET") body = "";
  // Only /mcp itself is the MCP endpoint; other spellings fall through to the static site.
  const req: HostileRequest = { index, family: "headers", what: `${what} ${method} ${path}`, method, path, headers: h, coding: path === "/mcp" || path === "/mcp?x=1" ? "mcp" : "any" };
  if (method !== "GET") req.body = body;
  return req;
}

/** A body over its route's limit: declared by Content-Length, or streamed without one (sometimes never ended). */
function bigBody(rng: Rng, t: FuzzTargets, index: number): HostileRequest {
  const path = pick(rng, ["/mcp", "/api/keys/auth", "/api/keys/name", "/api/keys/proof-check"]);
  const coding: Coding = path === "/mcp" ? "mcp" : "keys";
  const limit = path === "/mcp" ? t.limits.mcp : t.limits.api;
  const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  if (rng.int(2) === 0) {
    // Declared: the Content-Length alone says it is too large.
    const size = limit + 1 + rng.int(64 * 1024);
    return { index, family: "body", what: `declared ${size} bytes to ${path}`, method: "POST", path, headers, body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${"p".repeat(size)}"}}`, coding };
  }
  const holdOpen = rng.int(2) === 0;
  const bytes = limit + 1 + rng.int(256 * 1024);
  return { index, family: "body", what: `streamed ${bytes} bytes${holdOpen ? ", held open" : ""} to ${path}`, method: "POST", path, headers, stream: { bytes, chunk: 64 * 1024, holdOpen }, coding };
}

/** A small body that never ends: the server gives up on it (408) instead of waiting forever. */
function slowBody(rng: Rng, _t: FuzzTargets, index: number): HostileRequest {
  const path = pick(rng, ["/mcp", "/api/keys/auth", "/api/keys/name", "/api/keys/proof-check"]);
  return { index, family: "slow", what: `a body held open to ${path}`, method: "POST", path, headers: { "Content-Type": "application/json" }, stream: { bytes: 64 + rng.int(512), chunk: 64, holdOpen: true }, coding: path === "/mcp" ? "mcp" : "keys", timeoutMs: 45_000 };
}

function mutatedCall(rng: Rng, t: FuzzTargets, index: number): HostileRequest {
  const tool = pick(rng, ALL_TOOLS);
  const args = mutate(rng, plausibleArgs(rng, tool, t, index), t);
  // G out of range: a scatter or grid start is refused; a `field` ignores G (SPEC §6) and really starts.
  if (tool === "start_mosaic") args.G = pick(rng, [5, 1001, 0, -1, 100.5, "100"]);
  const auth = pick(rng, [`Bearer ${t.attacker.token}`, `Bearer ${t.attacker.token}`, `Bearer ${t.attacker.token}`, `Bearer ${t.outsider.token}`, null, badAuth(rng, t)]);
  if (auth === null && rng.int(2) === 0) args.agent_secret = pick(rng, [t.attacker.agentSecret, alnum(rng, 43), ""]);
  return mcp(index, "mutate", `${tool} ${JSON.stringify(args).slice(0, 160)}`, callRequest(rng, tool, args, auth));
}

function impersonation(rng: Rng, t: FuzzTargets, index: number): HostileRequest {
  const tool = pick(rng, WRITE_TOOLS);
  const victim = pick(rng, t.honestAgents());
  const cells = realCells(rng, t.field, 1 + rng.int(6));
  const args: Args = { game_id: t.gameId, agent: victim, expected_revision: t.revision(), intent: `fz${index} as ${victim}` };
  if (tool === "reveal") args.tile = rng.int(t.field.tiles.length);
  else args.cells = tool === "commit" ? cells : cells.map(([c]) => c);
  const how = rng.int(6);
  let auth: string | null = null;
  if (how === 0) auth = `Bearer ${t.attacker.token}`;
  else if (how === 1) auth = `Bearer ${t.outsider.token}`;
  else if (how === 2) args.agent_secret = t.attacker.agentSecret;
  else if (how === 3) args.agent_secret = alnum(rng, 43);
  else if (how === 4) auth = badAuth(rng, t);
  else {
    auth = `Bearer ${t.attacker.token}`;
    args.agent_secret = alnum(rng, 43);
  }
  return mcp(index, "impersonate", `${tool} as ${victim} (${["attacker token", "outsider token", "attacker's secret", "guessed secret", "bad token", "token + guessed secret"][how]})`, callRequest(rng, tool, args, auth));
}

function keyRequest(rng: Rng, t: FuzzTargets, index: number): HostileRequest {
  // Signatures come from keys the attacker holds; an honest machine is only ever named.
  const m = pick(rng, [t.attacker.machine, t.outsider.machine]);
  const victim = pick(rng, t.honestMachines);
  const now = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const post = (path: string, what: string, body: string): HostileRequest => ({ index, family: "keys", what, method: "POST", path, headers, body, coding: "keys" });
  switch (rng.int(12)) {
    case 0: { const ts = now - pick(rng, [301, 3600, 86_400, now]); return post("/api/keys/auth", "stale ts", JSON.stringify({ publicKey: m.publicKeyRaw, ts, sig: m.sign(`mosaic-key-auth:${t.host}:${ts}`) })); }
    case 1: { const ts = now + pick(rng, [301, 3600]); return post("/api/keys/auth", "future ts", JSON.stringify({ publicKey: m.publicKeyRaw, ts, sig: m.sign(`mosaic-key-auth:${t.host}:${ts}`) })); }
    case 2: return post("/api/keys/auth", "wrong host", JSON.stringify({ publicKey: m.publicKeyRaw, ts: now, sig: m.sign(`mosaic-key-auth:${pick(rng, ["evil.example", "127.0.0.1:1", ""])}:${now}`) }));
    case 3: return post("/api/keys/auth", "an honest key, the attacker's signature", JSON.stringify({ publicKey: victim.publicKeyRaw, ts: now, sig: m.sign(`mosaic-key-auth:${t.host}:${now}`) }));
    case 4: return post("/api/keys/auth", "malformed key", JSON.stringify({ publicKey: pick(rng, ["", b64(rng, 31), b64(rng, 33), "!!!", b64(rng, 32) + "=", m.publicKeyPem]), ts: now, sig: m.sign(`mosaic-key-auth:${t.host}:${now}`) }));
    case 5: return post("/api/keys/auth", "malformed fields", JSON.stringify(mutate(rng, { publicKey: m.publicKeyRaw, ts: now, sig: alnum(rng, 86) }, t)));
    case 6: return post("/api/keys/auth", "replayed key request", t.spentKeyRequest);
    case 7: return post("/api/keys/name", "renaming an honest machine", JSON.stringify({ publicKey: victim.publicKeyRaw, ts: now, name: rng.int(2) === 0 ? junk(rng) : "pwned", sig: m.sign(`mosaic-key-name:${t.host}:${now}:pwned`) }));
    case 8: return post("/api/keys/proof-check", "bad proof check", JSON.stringify(mutate(rng, { game_id: t.gameId, machine_id: victim.machineId, public_key: victim.publicKeyRaw, proof: b64(rng, 64), session: "1" }, t)));
    case 9: return { index, family: "keys", what: "whoami with a bad token", method: "GET", path: "/api/keys/whoami", headers: { Authorization: badAuth(rng, t) }, coding: "keys" };
    case 10: return { index, family: "keys", what: "machine lookup", method: "GET", path: `/api/keys/${encodeURIComponent(pick(rng, [`m-${hex(rng, 16)}`, victim.machineId, "m-xyz", alnum(rng, 10), "..%2F..%2Fetc"]))}`, headers: {}, coding: "keys" };
    default: return post(pick(rng, ["/api/keys/auth", "/api/keys/name"]), "body not an object", pick(rng, ["[]", "null", "\"x\"", "{", b64(rng, 40), ""]));
  }
}

function proofJoin(rng: Rng, t: FuzzTargets, index: number): HostileRequest {
  const minute = Math.floor(Date.now() / 60_000);
  const a = t.attacker.machine;
  const honest = pick(rng, t.honestMachines);
  const session = String(4 + rng.int(4));
  const sign = (m: TestMachine, game: string, min: number, s: string) => m.signBase64(`mosaic-join|${game}|${m.publicKeyRaw}|${min}|${s}`);
  let args: Args;
  let what: string;
  switch (rng.int(8)) {
    case 0: what = "replayed proof"; args = { ...t.spentProof }; break;
    case 1: { const min = minute - pick(rng, [2, 5, 60, 1440]); what = "stale proof"; args = { game_id: t.gameId, machine_id: a.machineId, public_key: a.publicKeyRaw, proof: sign(a, t.gameId, min, session), session }; break; }
    case 2: { const min = minute + pick(rng, [2, 10]); what = "future proof"; args = { game_id: t.gameId, machine_id: a.machineId, public_key: a.publicKeyRaw, proof: sign(a, t.gameId, min, session), session }; break; }
    case 3: what = "proof for another game"; args = { game_id: t.gameId, machine_id: a.machineId, public_key: a.publicKeyRaw, proof: sign(a, `${t.gameId}x`, minute, session), session }; break;
    case 4: what = "proof for another session"; args = { game_id: t.gameId, machine_id: a.machineId, public_key: a.publicKeyRaw, proof: sign(a, t.gameId, minute, "1"), session }; break;
    case 5: what = "someone else's machine id"; args = { game_id: t.gameId, machine_id: honest.machineId, public_key: a.publicKeyRaw, proof: sign(a, t.gameId, minute, session), session }; break;
    case 6: what = "someone else's key, own signature"; args = { game_id: t.gameId, machine_id: honest.machineId, public_key: honest.publicKeyRaw, proof: a.signBase64(`mosaic-join|${t.gameId}|${honest.publicKeyRaw}|${minute}|${session}`), session }; break;
    default: what = "malformed proof"; args = { game_id: t.gameId, machine_id: a.machineId, public_key: pick(rng, [a.publicKeyRaw, b64(rng, 32), "", "-----BEGIN PUBLIC KEY-----"]), proof: pick(rng, ["", b64(rng, 63), b64(rng, 64), "!!", "x".repeat(200)]), session }; break;
  }
  return mcp(index, "proof", what, callRequest(rng, "join", args, null));
}

function unknownToken(rng: Rng, t: FuzzTargets, index: number): HostileRequest {
  const tool = pick(rng, ["join", ...WRITE_TOOLS]);
  const args = tool === "join" ? { game_id: t.gameId, session: String(1 + rng.int(3)) } : plausibleArgs(rng, tool, t, index);
  return mcp(index, "token", `${tool} with a bad token`, callRequest(rng, tool, args, badAuth(rng, t)));
}

function randomGame(rng: Rng, t: FuzzTargets, index: number): HostileRequest {
  const tool = pick(rng, ["observe", "join", ...WRITE_TOOLS]);
  const args = plausibleArgs(rng, tool, t, index);
  args.game_id = pick(rng, [
    `${hex(rng, 8)}-${hex(rng, 4)}-${hex(rng, 4)}-${hex(rng, 4)}-${hex(rng, 12)}`,
    `day-${2000 + rng.int(100)}-0${1 + rng.int(9)}-1${rng.int(10)}`,
    alnum(rng, 1 + rng.int(80)),
    alnum(rng, 81),
    `${alnum(rng, 5)} ${alnum(rng, 5)}`,
    "",
  ]);
  return mcp(index, "game_id", `${tool} on ${String(args.game_id).slice(0, 40)}`, callRequest(rng, tool, args, pick(rng, [`Bearer ${t.attacker.token}`, null])));
}

function strayRoute(rng: Rng, _t: FuzzTargets, index: number): HostileRequest {
  const path = pick(rng, ["/api/", "/api/nope", "/api/games", `/api/games/${alnum(rng, 8)}`, "/api/keys", "/api/health?x=" + alnum(rng, 3000), "/identity.md", "/.env", "/wrangler.toml", "/src/index.ts", "/api/keys/auth"]);
  const method = pick(rng, ["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD"]);
  const req: HostileRequest = { index, family: "route", what: `${method} ${path.slice(0, 60)}`, method, path, headers: { "Content-Type": "application/json" }, coding: "any" };
  if (method !== "GET" && method !== "HEAD") req.body = JSON.stringify(junk(rng));
  return req;
}

/** Weights in ten-thousandths (a held-open body costs the server's whole body timeout, so it is rare). */
const FAMILIES: Array<[number, (rng: Rng, t: FuzzTargets, index: number) => HostileRequest]> = [
  [1400, malformedJsonRpc],
  [1200, oddHeaders],
  [100, bigBody],
  [3, slowBody],
  [2797, mutatedCall],
  [1200, impersonation],
  [1000, keyRequest],
  [800, proofJoin],
  [700, unknownToken],
  [600, randomGame],
  [200, strayRoute],
];

/** The `index`-th hostile request of a run: call in index order on one Rng for a reproducible sequence. */
export function hostileRequest(rng: Rng, t: FuzzTargets, index: number): HostileRequest {
  const family = FAMILIES[rng.weighted(FAMILIES.map(([w]) => w))][1];
  return family(rng, t, index);
}
