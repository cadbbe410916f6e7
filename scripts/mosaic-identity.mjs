#!/usr/bin/env node
// Mosaic identity helper (SPEC §8): makes an ed25519 machine key, mints bearer tokens, sets the
// display name, makes join proofs and prints the MCP client configuration.
// Plain Node 20 or later, no dependencies. Run with --help for usage.
import { createHash, createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { createInterface } from "node:readline/promises";
import { dirname, join } from "node:path";
import { ACCOUNT_USAGE, accountCommand } from "./mosaic-identity-account.mjs";

const USAGE = `usage: mosaic-identity <command> [options]

commands:
  init                       make the key file if it does not exist; print the machine id
  show                       print the machine id and public key
  token  <server-url>        mint a bearer token (replaces the previous one), store it in the
                             key file and print the MCP client configuration (JSON) on stdout
  config <server-url>        print the MCP client configuration with the stored token
  whoami <server-url>        ask the server which machine the stored token proves
  name   <server-url> <name> set the machine's display name
  proof  <game-id> [session] print join's identity arguments with a fresh proof (JSON)
${ACCOUNT_USAGE}
  approve <code> <server-url> approve a sign-in from a hosted MCP client (the code its consent
                             page shows) as this machine: shows who asks and asks you to confirm
                             on the terminal; the page then continues by itself
  grants <server-url>        list this machine's sign-in grants (JSON)
  revoke <server-url> <grant> revoke one grant: its tokens are refused from the next call

options:
  --file PATH, --config PATH the key file (default: $MOSAIC_IDENTITY, else
                             $MOSAIC_CONFIG_HOME/identity.json, else ~/.config/mosaic/identity.json)
  --yes, -y                  approve without asking (for scripts; without a terminal, approve
                             refuses unless it is given). Only for sign-ins you started yourself
  --help                     this text`;

function fail(message) {
  process.stderr.write(`mosaic-identity: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const positional = [];
  let file;
  let yes = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--help" || a === "-h") {
      process.stdout.write(USAGE + "\n");
      process.exit(0);
    } else if (a === "--yes" || a === "-y") {
      yes = true;
    } else if (a === "--file" || a === "--config") {
      file = argv[++i];
      if (!file) fail(`${a} needs a path`);
    } else if (a.startsWith("--file=") || a.startsWith("--config=")) {
      file = a.slice(a.indexOf("=") + 1);
    } else if (a.startsWith("--")) {
      fail(`unknown option ${a}\n\n${USAGE}`);
    } else positional.push(a);
  }
  const home = process.env.MOSAIC_CONFIG_HOME || join(homedir(), ".config", "mosaic");
  return { positional, yes, file: file || process.env.MOSAIC_IDENTITY || join(home, "identity.json") };
}

function machineIdOf(rawPublicKey) {
  return "m-" + createHash("sha256").update(rawPublicKey).digest("hex").slice(0, 16);
}

function readIdentity(file) {
  if (!existsSync(file)) fail(`no key file at ${file}; run 'mosaic-identity init' first`);
  let id;
  try {
    id = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    fail(`${file} is not valid JSON (${e.message})`);
  }
  if (typeof id.publicKey !== "string" || typeof id.privateKey !== "string") fail(`${file} lacks publicKey/privateKey`);
  const raw = Buffer.from(id.publicKey, "base64");
  if (raw.length !== 32) fail(`${file}: publicKey is not a raw 32-byte key in base64`);
  id.machine_id = machineIdOf(raw);
  id.key = createPrivateKey(id.privateKey);
  return id;
}

/** Writes the key file atomically and readable by its owner only. */
function writeIdentity(file, id) {
  const { key: _key, ...stored } = id;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(stored, null, 2) + "\n", { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

function serverUrl(text) {
  if (!text) fail("a server URL is required, e.g. http://127.0.0.1:8787");
  let url;
  try {
    url = new URL(text);
  } catch {
    fail(`not a URL: ${text}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") fail(`the server URL must be http(s): ${text}`);
  return url;
}

async function postJson(url, body) {
  let res;
  try {
    res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch (e) {
    fail(`cannot reach ${url}: ${e.cause?.message ?? e.message}`);
  }
  const json = await res.json().catch(() => ({}));
  if (!res.ok) fail(shown(json.error?.message, 1000) ?? `HTTP ${res.status} from ${url}`);
  return json;
}

/**
 * Text a server or a client chose, as this terminal may show it: control characters (escape
 * sequences, carriage returns), bidi and zero-width characters dropped, cut to `max` characters.
 * The server cleans names too (src/text/display-name.ts); this is the same rule, kept here.
 */
function shown(text, max = 60) {
  if (typeof text !== "string") return null;
  const clean = text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/gu, " ").replace(/\s+/gu, " ").trim();
  if (clean === "") return null;
  const chars = Array.from(clean);
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

const signB64url = (id, message) => sign(null, Buffer.from(message, "utf8"), id.key).toString("base64url");

function mcpConfig(origin, token) {
  return JSON.stringify({ mcpServers: { mosaic: { type: "http", url: `${origin}/mcp`, headers: { Authorization: `Bearer ${token}` } } } }, null, 2);
}

const commands = {
  init(file) {
    if (existsSync(file)) {
      const id = readIdentity(file);
      process.stdout.write(`${file} exists; keeping it. machine ${id.machine_id}\n`);
      return;
    }
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
    const id = { machine_id: machineIdOf(raw), publicKey: raw.toString("base64"), privateKey: privateKey.export({ format: "pem", type: "pkcs8" }) };
    writeIdentity(file, id);
    process.stdout.write(`created ${file}\nmachine ${id.machine_id}\n`);
  },

  show(file) {
    const id = readIdentity(file);
    process.stdout.write(`machine ${id.machine_id}\npublic key ${id.publicKey}\n`);
  },

  async token(file, [server]) {
    const url = serverUrl(server);
    const id = readIdentity(file);
    const ts = Math.floor(Date.now() / 1000);
    const answer = await postJson(new URL("/api/keys/auth", url), { publicKey: id.publicKey, ts, sig: signB64url(id, `mosaic-key-auth:${url.host}:${ts}`) });
    id.tokens = { ...(id.tokens ?? {}), [url.origin]: answer.token };
    writeIdentity(file, id);
    process.stderr.write(`minted a token for ${answer.machine_id} at ${url.origin} (stored in ${file}); MCP client configuration:\n`);
    process.stdout.write(mcpConfig(url.origin, answer.token) + "\n");
  },

  config(file, [server]) {
    const url = serverUrl(server);
    const token = readIdentity(file).tokens?.[url.origin];
    if (!token) fail(`no token stored for ${url.origin}; run 'mosaic-identity token ${url.origin}'`);
    process.stdout.write(mcpConfig(url.origin, token) + "\n");
  },

  async whoami(file, [server]) {
    const url = serverUrl(server);
    const token = readIdentity(file).tokens?.[url.origin];
    if (!token) fail(`no token stored for ${url.origin}; run 'mosaic-identity token ${url.origin}'`);
    const res = await fetch(new URL("/api/keys/whoami", url), { headers: { authorization: `Bearer ${token}` } });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) fail(json.error?.message ?? `HTTP ${res.status}`);
    process.stdout.write(JSON.stringify(json) + "\n");
  },

  async name(file, [server, name]) {
    const url = serverUrl(server);
    if (!name) fail("a name is required");
    const id = readIdentity(file);
    const ts = Math.floor(Date.now() / 1000);
    const answer = await postJson(new URL("/api/keys/name", url), { publicKey: id.publicKey, ts, name, sig: signB64url(id, `mosaic-key-name:${url.host}:${ts}:${name}`) });
    process.stdout.write(`${answer.machine_id} is now named "${answer.name}"\n`);
  },

  proof(file, [gameId, session = "1"]) {
    if (!gameId || !/^[a-zA-Z0-9_-]{1,80}$/.test(gameId)) fail("a game id is required (letters, digits, _ and -)");
    const id = readIdentity(file);
    const minute = Math.floor(Date.now() / 60_000);
    const proof = sign(null, Buffer.from(`mosaic-join|${gameId}|${id.publicKey}|${minute}|${session}`), id.key).toString("base64");
    process.stdout.write(JSON.stringify({ game_id: gameId, machine_id: id.machine_id, public_key: id.publicKey, proof, session }) + "\n");
  },

  account: (file, args) => accountCommand(file, args, { fail, serverUrl, readIdentity, postJson, getJson, sign: signB64url }),
};

/** A sign-in code as a person may type it: any case, with or without the dash. */
function signInCode(text) {
  const code = String(text ?? "").toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (!/^[0-9A-HJKMNP-TV-Z]{10}$/.test(code)) fail("a sign-in code is the 10 characters the consent page shows, e.g. K7QXM-2PD4R");
  return code;
}

async function getJson(url) {
  let res;
  try {
    res = await fetch(url, { headers: { accept: "application/json" } });
  } catch (e) {
    fail(`cannot reach ${url}: ${e.cause?.message ?? e.message}`);
  }
  const json = await res.json().catch(() => ({}));
  if (!res.ok) fail(shown(json.error?.message, 1000) ?? `HTTP ${res.status} from ${url}`);
  return json;
}

/** Who asks, from the sign-in's public description: a metadata document's host, or an unverified client's claim. */
function whoAsks(client) {
  const name = shown(client?.name);
  const said = name ? `; it calls itself "${name}" (self-declared, not verified)` : "";
  if (client?.kind === "metadata-document" && client.verified === true) return `${shown(client.host, 255)} (its metadata document's host)${said}`;
  return `an unverified client registered on this server, which says it returns to ${shown(client?.redirect_host, 255) ?? "an unknown host"}${said}`;
}

/** Asks on the terminal; without one, only --yes approves. */
async function confirmed(yes, question) {
  if (yes) return true;
  if (!process.stdin.isTTY) {
    fail("not approved: approve asks for confirmation on a terminal, and stdin is not one. In a script, add --yes (only for a sign-in you started yourself).");
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^\s*y(es)?\s*$/i.test(await rl.question(question));
  } finally {
    rl.close();
  }
}

Object.assign(commands, {
  async approve(file, [codeText, server], { yes }) {
    const code = signInCode(codeText);
    const url = serverUrl(server);
    const id = readIdentity(file);
    const pending = await getJson(new URL(`/oauth/requests/${code}`, url));
    if (pending.status !== "pending") fail(`sign-in ${code} is not waiting for approval`);
    process.stderr.write(`sign-in ${code.slice(0, 5)}-${code.slice(5)} on ${url.origin}\n  who asks: ${whoAsks(pending.client)}\n  it may: play Mosaic as machine ${id.machine_id} (join, reveal, commit) until you revoke it\n`);
    if (!(await confirmed(yes, "Approve only a sign-in you started yourself. Approve? [y/N] "))) fail("not approved");
    const ts = Math.floor(Date.now() / 1000);
    const answer = await postJson(new URL("/oauth/approve", url), { request: code, publicKey: id.publicKey, ts, sig: signB64url(id, `mosaic-oauth-approve:${url.host}:${code}:${ts}`) });
    process.stdout.write(`approved: ${answer.machine_id} is signed in; the consent page continues by itself\n`);
  },

  async grants(file, [server]) {
    const url = serverUrl(server);
    const id = readIdentity(file);
    const ts = Math.floor(Date.now() / 1000);
    const answer = await postJson(new URL("/api/keys/grants", url), { publicKey: id.publicKey, ts, sig: signB64url(id, `mosaic-oauth-grants:${url.host}:${ts}`) });
    for (const g of answer.grants ?? []) if (g.client) g.client.name = shown(g.client.name);
    process.stdout.write(JSON.stringify(answer, null, 2) + "\n");
  },

  async revoke(file, [server, grant]) {
    const url = serverUrl(server);
    if (!grant) fail("a grant id is required (see 'mosaic-identity grants <server-url>')");
    const id = readIdentity(file);
    const ts = Math.floor(Date.now() / 1000);
    const answer = await postJson(new URL("/api/keys/grants/revoke", url), { publicKey: id.publicKey, ts, grant, sig: signB64url(id, `mosaic-oauth-revoke:${url.host}:${ts}:${grant}`) });
    process.stdout.write(`revoked grant ${answer.revoked} of ${answer.machine_id}\n`);
  },
});

const { positional, file, yes } = parseArgs(process.argv.slice(2));
const [command, ...rest] = positional;
if (!command) {
  process.stdout.write(USAGE + "\n");
  process.exit(0);
}
if (!Object.hasOwn(commands, command)) fail(`unknown command '${command}'\n\n${USAGE}`);
await commands[command](file, rest, { yes });
