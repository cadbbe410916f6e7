import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { playAgent } from "../../agent";
import { bearerToken, loadOrCreateIdentity } from "../../agent/identity";
import { generateField } from "../../src/engine";
import { rngFromSeed } from "../../src/engine/random";
import { MAX_API_BODY_BYTES, MAX_BODY_BYTES } from "../../src/http/body-limits";
import { isRecord } from "../../src/referee/validate";
import { chainProblems, ledgerProblems, readLog, type LoggedEvent } from "../support/event-log";
import { hostileRequest, type FuzzTargets, type HostileRequest } from "./hostile";
import { joinProofArgs, mintToken, newMachine, type TestMachine } from "../support/identity";
import { callToolStructured, connectClient, type McpClient } from "../support/mcp-clients";
import { OracleAgent } from "../support/oracle-agent";
import { messagesOfText, WireTap } from "../support/wire-tap";
import { readPublicState, stateDifferences, stateFromLog } from "../support/public-state";
import { storedMeta, storedObjects, untilUnlocked } from "./stored-objects";
import { startDevServer } from "../support/wrangler-dev";

/**
 * SPEC §6, §7, §8, §12 under attack: a seeded fuzz of hostile requests (FUZZ_REQUESTS, 10,000 by
 * default) while two honest agents play, one with a bearer token and one with a proof join's
 * agent_secret. Every answer is below 500; every refusal is coded (a JSON-RPC error, a tool
 * error with a SPEC code, or a key route's error code); no answer carries anyone's token, secret
 * or the field's seed; the log holds only writes that were answered, none of them as an honest
 * agent by anyone else; and the honest agents finish. The sequence of requests is a pure function
 * of FUZZ_SEED (printed), drawn with the engine's PRNG, so a failure reproduces with the same seed.
 */

const SEED = process.env.FUZZ_SEED ?? "mosaic-fuzz-1";
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const CONCURRENCY = 6;
const ANSWER_TIMEOUT_MS = 20_000;

const SPEC_CODES = new Set(["missing", "generating", "failed", "identity", "token", "proof", "not_seated", "not_your_agent", "off_frontier", "solved", "conflict", "too_large", "bad_input", "dead", "closed", "rate_limited", "unavailable"]);
const KEY_CODES = new Set([...SPEC_CODES, "bad_signature", "wrong_host", "stale_timestamp", "key_mismatch", "replayed"]);

type Json = Record<string, unknown>;

interface Answer {
  status: number;
  headers: string;
  text: string;
}

/** Sends a hostile request; a stream body is fed chunk by chunk and, when asked, never closed. */
async function send(baseUrl: string, req: HostileRequest, fetchImpl: typeof fetch): Promise<Answer | { lost: string; timedOut: boolean }> {
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, req.timeoutMs ?? ANSWER_TIMEOUT_MS);
  try {
    let body = req.body as BodyInit | undefined;
    if (req.stream) {
      const { bytes, chunk, holdOpen } = req.stream;
      let sent = 0;
      body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= bytes) {
            if (!holdOpen) controller.close();
            return new Promise<void>(() => {}); // held open: the client never finishes its body
          }
          const n = Math.min(chunk, bytes - sent);
          sent += n;
          controller.enqueue(new Uint8Array(n).fill(0x70));
        },
      });
    }
    const init = { method: req.method, headers: req.headers, body, signal: abort.signal, redirect: "manual", ...(req.stream ? { duplex: "half" } : {}) } as RequestInit;
    const res = await fetchImpl(`${baseUrl}${req.path}`, init);
    const text = req.method === "HEAD" ? "" : await res.text();
    const headers = [...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
    return { status: res.status, headers, text };
  } catch (err) {
    const cause = err instanceof Error && isRecord(err.cause) ? ` (${String(err.cause.code ?? err.cause.message)})` : "";
    return { lost: err instanceof Error ? `${err.name}: ${err.message}${cause}` : String(err), timedOut };
  } finally {
    clearTimeout(timer);
    abort.abort(); // releases a held-open body once the answer is in
  }
}

/**
 * `wrangler dev` only: its proxy in front of the Worker (miniflare's entry worker) answers 500
 * "Network connection lost" when the Worker refuses a body it has not read to the end and the
 * client is still sending it: our code answered 413, the proxy lost the race to relay it (and,
 * rarely, a request sent on the same broken connection fails alike). Not our code's answer.
 */
function devProxyCut(a: Answer): boolean {
  // Exactly the proxy's own catch: one frame, its `await service.fetch(request)` (a Worker's own
  // failure reaches the proxy as a response, never as this throw).
  return a.status === 500 && /^Error: Network connection lost\.\n\s+at async Object\.fetch \(file:\/\/\/\S*\/miniflare\/dist\/src\/workers\/core\/entry\.worker\.js:\d+:\d+\)\s*$/.test(a.text);
}

/** An upload over the limit may also end with the server closing the connection while the client still sends. */
const overLimitUpload = (req: HostileRequest) => req.family === "body";

/** What is wrong with an answer: a 5xx, or a refusal without a code. */
function codingProblem(req: HostileRequest, a: Answer): string | null {
  if (a.status >= 500 && !(overLimitUpload(req) && devProxyCut(a))) return `HTTP ${a.status}: ${a.text.slice(0, 200)}`;
  if (a.status >= 500) return null;
  if (req.coding === "any") return null;
  if (a.status === 202 && a.text === "") return null; // a notification
  if (a.status === 403 && req.method === "OPTIONS") return null; // a refused CORS preflight: the status is the answer
  if (a.status === 405 || a.status === 404) {
    if (req.coding === "mcp" && a.status === 404) return `404 on /mcp: ${a.text.slice(0, 120)}`;
  }
  let messages: Json[];
  try {
    const type = /content-type: ([^\n]*)/.exec(a.headers)?.[1] ?? "";
    messages = messagesOfText(a.text, type);
  } catch {
    return `HTTP ${a.status} with a body that is not JSON: ${a.text.slice(0, 120)}`;
  }
  if (messages.length === 0) return `HTTP ${a.status} with an empty body`;
  for (const m of messages) {
    if (isRecord(m.error)) {
      const code = m.error.code;
      if (typeof code === "number" ? !Number.isInteger(code) : !(req.coding === "keys" ? KEY_CODES : SPEC_CODES).has(String(code))) return `uncoded error ${JSON.stringify(m.error).slice(0, 160)}`;
      continue;
    }
    if (req.coding === "keys") {
      if (a.status >= 400) return `HTTP ${a.status} without an error code: ${a.text.slice(0, 160)}`;
      continue;
    }
    if (!isRecord(m.result)) return `a message that is neither result nor error: ${JSON.stringify(m).slice(0, 160)}`;
    if (m.result.isError === true) {
      const e = isRecord(m.result.structuredContent) && isRecord(m.result.structuredContent.error) ? m.result.structuredContent.error : undefined;
      if (!e || !SPEC_CODES.has(String(e.code))) return `tool error without a SPEC code: ${JSON.stringify(m.result).slice(0, 200)}`;
    }
  }
  return null;
}

/** How an answer refused (or not): `ok`, `jsonrpc <code>`, `tool <code>`, `keys <code>` or `http <status>`; for the figures. */
function refusalOf(a: Answer): string {
  if (devProxyCut(a)) return "dev proxy 500 (connection lost)";
  try {
    const type = /content-type: ([^\n]*)/.exec(a.headers)?.[1] ?? "";
    for (const m of messagesOfText(a.text, type)) {
      if (isRecord(m.error)) return typeof m.error.code === "number" ? `jsonrpc ${m.error.code}` : `keys ${String(m.error.code)}`;
      if (isRecord(m.result) && m.result.isError === true && isRecord(m.result.structuredContent) && isRecord(m.result.structuredContent.error)) return `tool ${String(m.result.structuredContent.error.code)}`;
    }
  } catch {
    // not JSON: the HTTP status says it all
  }
  return a.status >= 400 ? `http ${a.status}` : "ok";
}

/** A successful tool answer that reports a revision: a write (or join) someone was told about. */
function answeredWrite(a: Answer): { revision: number; agent?: string } | null {
  try {
    const type = /content-type: ([^\n]*)/.exec(a.headers)?.[1] ?? "";
    for (const m of messagesOfText(a.text, type)) {
      if (!isRecord(m.result) || m.result.isError === true || !isRecord(m.result.structuredContent)) continue;
      const s = m.result.structuredContent;
      if (typeof s.revision === "number") return { revision: s.revision, agent: typeof s.agent === "string" ? s.agent : undefined };
    }
  } catch {
    // not a tool answer
  }
  return null;
}

/** The game id a successful `start_mosaic` answered (the attacker's token may start fields: a legitimate act). */
function startedField(a: Answer): string | null {
  try {
    const type = /content-type: ([^\n]*)/.exec(a.headers)?.[1] ?? "";
    for (const m of messagesOfText(a.text, type)) {
      if (!isRecord(m.result) || m.result.isError === true || !isRecord(m.result.structuredContent)) continue;
      const s = m.result.structuredContent;
      if (typeof s.game_id === "string" && s.status === "generating") return s.game_id;
    }
  } catch {
    // not a tool answer
  }
  return null;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

async function mintWithBody(baseUrl: string, machine: TestMachine): Promise<{ token: string; body: string }> {
  const host = new URL(baseUrl).host;
  const ts = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ publicKey: machine.publicKeyRaw, ts, sig: machine.sign(`mosaic-key-auth:${host}:${ts}`) });
  const res = await fetch(`${baseUrl}/api/keys/auth`, { method: "POST", headers: { "content-type": "application/json" }, body });
  const answer = (await res.json()) as { token: string };
  return { token: answer.token, body };
}

describe("faults: a seeded fuzz of hostile requests while honest agents play", () => {
  it(`${REQUESTS} hostile requests: no 5xx, every refusal coded, nothing leaked, no refused write stored, the honest agents finish`, { timeout: 1_500_000 }, async () => {
    console.log(`fuzz seed: ${SEED} (reproduce with FUZZ_SEED=${SEED}), ${REQUESTS} requests`);
    const stateDir = mkdtempSync(join(tmpdir(), "mosaic-fuzz-state-"));
    const server = await startDevServer({ stateDir });
    const keys = mkdtempSync(join(tmpdir(), "mosaic-fuzz-keys-"));
    const rawFetch = globalThis.fetch.bind(globalThis);
    const tap = new WireTap(rawFetch);
    const uninstall = tap.install((h) => h.get("authorization")?.slice(-12) ?? "no-token");
    const clients: McpClient[] = [];
    try {
      const base = server.baseUrl;
      const host = new URL(base).host;

      // The honest players: the reference agent (bearer token), and an oracle agent that
      // proof-joined (agent_secret, no header) and plays slowly for as long as the fuzz lasts.
      const refFile = join(keys, "reference.json");
      const ref = loadOrCreateIdentity(refFile);
      const refToken = (await bearerToken(ref, new URL(base))).token;
      const h2 = newMachine();
      clients.push(await connectClient(base, { headers: { Authorization: `Bearer ${refToken}` } }));
      clients.push(await connectClient(base, { flavour: "v2-legacy" }));
      const fieldSeed = `fuzz-field-${SEED}`;
      const started = await callToolStructured<{ game_id: string }>(clients[0], "start_mosaic", { kind: "scatter", G: 48, seed: fieldSeed });
      const gameId = started.game_id;
      for (;;) {
        const o = await clients[0].callTool("observe", { game_id: gameId, rect: [0, 0, 1, 1] });
        if ((o.structuredContent?.observation as { status?: string } | undefined)?.status === "playing") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const field = await generateField({ kind: "scatter", G: 48, seed: fieldSeed });

      let fuzzing = true;
      const oracle = new OracleAgent({
        label: "h2",
        gameId,
        field,
        client: clients[1],
        rng: await rngFromSeed(SEED),
        cellsPerCommit: 4,
        pause: () => (fuzzing ? 300 : 0),
        joinArgs: () => joinProofArgs(h2, gameId, "1"),
      });
      await oracle.join();
      const oracleSecret = oracle.secret!;
      expect(oracleSecret).toBeTypeOf("string");
      const refSeats = [1, 2, 3].map((n) => `${ref.machineId}/${n === 1 ? "1" : `1.${n}`}`);
      const honestAgents = () => [...refSeats, oracle.agent];
      const honestRuns = {
        reference: playAgent({ url: base, game: gameId, identityFile: refFile, name: "honest", model: "reference", idleSeconds: 5, maxSeconds: 1800 }),
        oracle: oracle.run(() => false),
      };

      // The attacker: a token (and the one it replaced), a seat of its own, a spent proof; an outsider with a token.
      const attacker = newMachine();
      const staleToken = await mintToken(base, attacker);
      await new Promise((r) => setTimeout(r, 1100)); // a new signed request needs a new second
      const attackerToken = await mintToken(base, attacker);
      const attackerClient = await connectClient(base, { headers: { Authorization: `Bearer ${attackerToken}` }, fetch: rawFetch });
      clients.push(attackerClient);
      const attackerAgent = (await callToolStructured<{ agent: string }>(attackerClient, "join", { game_id: gameId })).agent;
      const bare = await connectClient(base, { flavour: "v2-legacy", fetch: rawFetch });
      clients.push(bare);
      const spentProof = { game_id: gameId, ...joinProofArgs(attacker, gameId, "2") };
      const attackerSecret = (await callToolStructured<{ agent_secret: string }>(bare, "join", spentProof)).agent_secret;
      const outsider = newMachine();
      const minted = await mintWithBody(base, outsider);

      const targets: FuzzTargets = {
        host,
        gameId,
        field,
        honestAgents,
        honestMachines: [h2, { machineId: ref.machineId, publicKeyRaw: ref.publicKey }],
        revision: () => Math.max(oracle.revision, ...tap.answered().map((c) => Number(c.outcome.structured?.revision ?? 0))),
        attacker: { machine: attacker, token: attackerToken, staleToken, agent: attackerAgent, agentSecret: attackerSecret },
        outsider: { machine: outsider, token: minted.token },
        spentProof,
        spentKeyRequest: minted.body,
        limits: { mcp: MAX_BODY_BYTES, api: MAX_API_BODY_BYTES },
      };
      const secrets = [refToken, oracleSecret, attackerToken, staleToken, minted.token, attackerSecret, fieldSeed];
      const secretForms = secrets.flatMap((s) => [s, sha256(s)]);

      const setupRevs = new Set((await readLog(base, gameId)).events.filter((e) => e.agent?.startsWith(`${attacker.machineId}/`)).map((e) => e.rev));
      expect(setupRevs.size).toBe(2);
      // The fuzz: requests built in index order from one PRNG stream, sent by a few workers at once.
      const problems: string[] = [];
      const writesAnswered = new Map<number, { index: number; agent?: string }>();
      const startedFields = new Set<string>();
      const families = new Map<string, number>();
      const fuzzRng = await rngFromSeed(`${SEED}|requests`);
      const refusals = new Map<string, number>();
      const answerTexts: string[] = [];
      let next = 0;
      let done = 0;
      const timings: Array<[number, string]> = [];
      const fuzzStart = performance.now();
      const worker = async () => {
        while (next < REQUESTS) {
          const req = hostileRequest(fuzzRng, targets, next++);
          families.set(req.family, (families.get(req.family) ?? 0) + 1);
          const t0 = performance.now();
          let answer = await send(base, req, rawFetch);
          if (!("lost" in answer) && devProxyCut(answer) && !overLimitUpload(req)) {
            // The dev proxy dropped a request that was not an upload (a neighbour's cut upload
            // broke its connection): the same bytes again must get our own coded answer.
            refusals.set("dev proxy 500, then resent", (refusals.get("dev proxy 500, then resent") ?? 0) + 1);
            answer = await send(base, req, rawFetch);
          }
          timings.push([performance.now() - t0, `${req.family}/${req.what.slice(0, 60)}`]);
          if (++done % 1000 === 0) console.log(`fuzz: ${done} requests in ${((performance.now() - fuzzStart) / 1000).toFixed(1)} s`);
          const where = `#${req.index} ${req.family}/${req.what}`;
          if ("lost" in answer) {
            if (overLimitUpload(req) && !answer.timedOut) refusals.set("closed mid-upload", (refusals.get("closed mid-upload") ?? 0) + 1);
            else problems.push(`${where}: no answer (${answer.lost})`);
            continue;
          }
          const refusal = refusalOf(answer);
          refusals.set(refusal, (refusals.get(refusal) ?? 0) + 1);
          const coding = codingProblem(req, answer);
          if (coding) problems.push(`${where}: ${coding}`);
          answerTexts.push(answer.headers, answer.text);
          const sent = `${JSON.stringify(req.headers)}${typeof req.body === "string" ? req.body : ""}`;
          for (const s of secretForms) if (!sent.includes(s) && (answer.text.includes(s) || answer.headers.includes(s))) problems.push(`${where}: the answer carries a secret (${s.slice(0, 8)}…)`);
          const write = answeredWrite(answer);
          if (write) writesAnswered.set(write.revision, { index: req.index, agent: write.agent });
          const started = startedField(answer);
          if (started) startedFields.add(started);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      fuzzing = false;
      const reference = await honestRuns.reference;
      await honestRuns.oracle;
      await tap.settle();
      const fuzzSeconds = (performance.now() - fuzzStart) / 1000;
      console.log(`fuzz: ${REQUESTS} requests in ${fuzzSeconds.toFixed(1)} s (${(REQUESTS / fuzzSeconds).toFixed(0)}/s)`);
      console.log(`fuzz families: ${JSON.stringify(Object.fromEntries(families))}`);
      console.log(`fuzz answers: ${JSON.stringify(Object.fromEntries([...refusals].sort((a, b) => b[1] - a[1])))}`);
      timings.sort((a, b) => a[0] - b[0]);
      console.log(`fuzz answer times: median ${timings[timings.length >> 1][0].toFixed(0)} ms, slowest ${timings.slice(-5).map(([ms, w]) => `${ms.toFixed(0)} ms ${w}`).join("; ")}`);

      expect(problems.slice(0, 30), `seed ${SEED}: ${problems.length} problems`).toEqual([]);
      // The honest agents played their part of the field to the end.
      expect(["solved", "no_frontier"], JSON.stringify(reference)).toContain(reference.reason);
      expect(reference.commits).toBeGreaterThan(0);
      expect(oracle.finished).toBe(true);
      expect(oracle.writes).toBeGreaterThan(5);
      const honestCalls = tap.calls.filter((c) => c.caller === refToken.slice(-12) || c.caller === "no-token");
      console.log(`fuzz honest agents: reference ${reference.reason} (${reference.commits} commits, ${honestCalls.filter((c) => c.caller !== "no-token").length} calls), proof-joined ${oracle.writes} writes (${honestCalls.filter((c) => c.caller === "no-token").length} calls)`);
      const lostHonest = honestCalls.filter((c) => c.outcome.kind === "lost");
      if (lostHonest.length > 0) console.log(`honest calls without an answer: ${lostHonest.map((c) => `${c.caller} ${c.tool} ${JSON.stringify(c.args).slice(0, 200)} (${c.outcome.kind === "lost" ? c.outcome.reason : ""}, started at ${(c.startedAt / 1000).toFixed(1)} s, ended ${(c.endedAt / 1000).toFixed(1)} s)`).join("; ")}`);
      // No honest answer carried anyone's secret (except the proof join's own answer handing out its secret).
      for (const call of honestCalls) {
        if (call.outcome.kind !== "answered") continue;
        const text = JSON.stringify(call.outcome.structured ?? {});
        for (const s of secretForms) if (text.includes(s) && !(call.tool === "join" && s === oracleSecret)) problems.push(`honest ${call.tool}: carries a secret`);
      }
      expect(problems).toEqual([]);

      // The log: chained, every honest answered write in it, and nothing a refusal wrote.
      const { manifest, events } = await readLog(base, gameId);
      expect(await chainProblems(manifest, events)).toEqual([]);
      const honestSet = new Set([...reference.agents, oracle.agent]);
      expect(ledgerProblems(honestCalls, events, honestSet)).toEqual([]);
      // Anything else in the log is the attacker's own: its setup joins, or a write whose answer it got.
      const stray = events.filter((e: LoggedEvent) => {
        if (e.agent !== undefined && honestSet.has(e.agent)) return false; // checked above, write by write
        // The attacker's and the outsider's tokens are valid: their own seats and writes are theirs to make.
        const own = [attacker, outsider].some((m) => e.agent?.startsWith(`${m.machineId}/`) === true);
        return !(own && (setupRevs.has(e.rev) || writesAnswered.has(e.rev)));
      });
      expect(stray.map((e) => `rev ${e.rev} ${e.type} by ${e.agent}`)).toEqual([]);

      // The state anyone can read is the state the log implies: no refused write changed a cell
      // or a tile without an event. (The comparison can fail: the log without one commit differs.)
      const state = await readPublicState(base, gameId, field.G);
      expect(stateDifferences(stateFromLog(field, events), state)).toEqual([]);
      const accepted = (e: LoggedEvent) => (e.type === "commit" ? ((e.accepted as unknown[] | undefined)?.length ?? 0) : 0);
      const oneCommit = events.reduce<LoggedEvent | undefined>((best, e) => (accepted(e) > (best ? accepted(best) : 0) ? e : best), undefined);
      expect(oneCommit).toBeDefined();
      expect(stateDifferences(stateFromLog(field, events.filter((e) => e !== oneCommit)), state).length).toBeGreaterThan(0);

      // No storage behind any of it: of all the field objects the requests reached (random game
      // ids included), only real fields have tables — the honest one, and any the attacker's valid
      // token started (start_mosaic answered with a game id).
      await server.stop();
      const stored = await untilUnlocked(() => storedObjects(stateDir, "FieldObject"));
      const storedGames = (await untilUnlocked(() => storedMeta(stateDir, "FieldObject", "game_id"))).map(String);
      expect(stored.filter((o) => o.tables.length > 0).length, JSON.stringify(stored.map((o) => o.tables))).toBe(storedGames.length);
      expect(storedGames.sort()).toEqual([gameId, ...startedFields].sort());
      console.log(`fuzz storage: ${stored.length} field objects touched, ${stored.filter((o) => o.tables.length > 0).length} with tables (${startedFields.size} started by the attacker); log of ${events.length} events (${events.filter((e) => !honestSet.has(String(e.agent))).length} by the attacker and the outsider)`);
      // Nor did any answer carry the field's secret tile-hash key (released only with an archive).
      const hashKeys = (await untilUnlocked(() => storedMeta(stateDir, "FieldObject", "day_key"))).map(String);
      expect(hashKeys).toHaveLength(storedGames.length);
      const honestText = tap.calls.map((c) => (c.outcome.kind === "answered" ? JSON.stringify(c.outcome.structured ?? {}) : "")).join("\n");
      for (const hashKey of hashKeys) {
        expect(hashKey.length).toBeGreaterThanOrEqual(32);
        expect(answerTexts.filter((t) => t.includes(hashKey)).length).toBe(0);
        expect(honestText.includes(hashKey)).toBe(false);
      }
    } finally {
      uninstall();
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await server.stop();
      rmSync(keys, { recursive: true, force: true });
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
