// The consent page's script (SPEC §8.1): approve a sign-in with this browser's key, wait for the
// key-file CLI's approval, or approve with a pasted token; then go back to the client.
import { createKey, identityJson, loadKey, sign, type BrowserKey } from "./browser-key";

const requestId = document.body.dataset.request ?? "";
// Only this page holds it: the sign-in's outcome and its redirect are told to its holder alone.
const secret = document.body.dataset.secret ?? "";
/** How often the page asks whether the key-file CLI approved: on its own allowance, never the approval's. */
const POLL_MS = 2000;
const host = location.host;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const statusLine = $<HTMLParagraphElement>("status");
let key: BrowserKey | null = null;
let leaving = false;

function say(text: string, error = false): void {
  statusLine.textContent = text;
  statusLine.className = error ? "error" : "";
}

async function post(path: string, body: unknown): Promise<{ ok: boolean; json: Record<string, unknown> }> {
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: res.ok, json };
}

function errorText(json: Record<string, unknown>): string {
  const e = json.error as { message?: string } | undefined;
  return e?.message ?? "the server refused";
}

function leave(to: string): void {
  if (leaving) return;
  leaving = true;
  say("Approved: going back to the client…");
  location.assign(to);
}

function showKey(): void {
  const state = $<HTMLParagraphElement>("browser-key-state");
  const approve = $<HTMLButtonElement>("approve-browser");
  approve.disabled = false;
  if (key) {
    state.textContent = `This browser holds the key of machine ${key.machineId}${key.extractable ? " (downloadable)" : " (it never leaves this browser)"}.`;
    approve.textContent = `Approve as ${key.machineId}`;
    $<HTMLLabelElement>("downloadable-label").hidden = true;
    $<HTMLButtonElement>("download").hidden = !key.extractable;
  } else {
    state.textContent = "No key in this browser yet: approving makes one, a new machine of yours.";
    approve.textContent = "Make a key and approve";
    $<HTMLLabelElement>("downloadable-label").hidden = false;
  }
}

async function download(): Promise<void> {
  if (!key?.extractable) return;
  const blob = new Blob([await identityJson(key)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "identity.json";
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

async function approveWithBrowserKey(): Promise<void> {
  const button = $<HTMLButtonElement>("approve-browser");
  button.disabled = true;
  try {
    if (!key) {
      key = await createKey($<HTMLInputElement>("downloadable").checked);
      if (key.extractable) await download();
    }
    const name = $<HTMLInputElement>("name").value.trim();
    if (name) {
      const ts = Math.floor(Date.now() / 1000);
      const named = await post("/api/keys/name", { publicKey: key.raw, ts, name, sig: await sign(key, `mosaic-key-name:${host}:${ts}:${name}`) });
      if (!named.ok) throw new Error(`the name was refused: ${errorText(named.json)}`);
    }
    const ts = Math.floor(Date.now() / 1000);
    const sig = await sign(key, `mosaic-oauth-approve:${host}:${requestId}:${ts}`);
    const r = await post("/oauth/approve", { request: requestId, publicKey: key.raw, ts, sig, secret });
    if (!r.ok) throw new Error(errorText(r.json));
    leave(String(r.json.redirect_to));
  } catch (err) {
    say(err instanceof Error ? err.message : String(err), true);
    button.disabled = false;
    showKey();
  }
}

async function approveWithToken(): Promise<void> {
  const token = $<HTMLInputElement>("token").value.trim();
  if (!token) return say("Paste the machine's msc_… token first.", true);
  const r = await post("/oauth/approve", { request: requestId, token, secret });
  if (!r.ok) return say(errorText(r.json), true);
  leave(String(r.json.redirect_to));
}

/**
 * The key-file CLI approves from elsewhere: the page learns it by asking with its secret. A 429
 * (its own limit, separate from the approval's) only makes it wait as long as it is told.
 */
async function poll(): Promise<void> {
  let wait = POLL_MS;
  while (!leaving) {
    await new Promise((r) => setTimeout(r, wait));
    if (leaving) return;
    wait = POLL_MS;
    const res = await fetch(`/oauth/requests/${requestId}/status`, { headers: { accept: "application/json", "Mosaic-Signin-Secret": secret } }).catch(() => null);
    if (!res) continue;
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (json.status === "approved" && typeof json.redirect_to === "string") return leave(json.redirect_to);
    if (res.status === 429) wait = Math.max(POLL_MS, Number(res.headers.get("Retry-After")) * 1000 || POLL_MS);
    else if (res.status >= 400 && res.status < 500) return say(errorText(json), true);
  }
}

$<HTMLButtonElement>("approve-browser").addEventListener("click", () => void approveWithBrowserKey());
$<HTMLButtonElement>("approve-token").addEventListener("click", () => void approveWithToken());
$<HTMLButtonElement>("download").addEventListener("click", () => void download());
if (!("indexedDB" in window) || !crypto.subtle) {
  $<HTMLParagraphElement>("browser-key-state").textContent = "This browser cannot keep a key (no IndexedDB or WebCrypto): use your key file or a token.";
} else {
  loadKey()
    .then((k) => {
      key = k;
      showKey();
    })
    .catch((err: unknown) => ($<HTMLParagraphElement>("browser-key-state").textContent = `This browser's key store is unavailable (${String(err)}).`));
}
void poll();
