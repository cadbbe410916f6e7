// The account page's "join from this browser": the key file is read and used in the page only
// (WebCrypto); what leaves it is the signed acceptance, the same request the CLI sends.
export const JOIN_FORM = `<h2>Join from this browser</h2>
<p>With an invitation from a member and the joining machine's key file (<code>identity.json</code>): the file is read here and never sent; only the signed acceptance is.</p>
<form id="join-form">
<p><label>Invitation<br><textarea id="join-invitation" rows="3" cols="60" required placeholder="mosaic-invite.…"></textarea></label></p>
<p><label>Key file <input id="join-key" type="file" accept=".json,application/json" required></label></p>
<p><button type="submit">Join this account</button></p>
<p id="join-result" role="status"></p>
</form>`;

export const JOIN_SCRIPT = `<script type="module">
const form = document.getElementById("join-form");
const result = document.getElementById("join-result");
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
const fromB64 = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  result.textContent = "Signing…";
  try {
    const word = document.getElementById("join-invitation").value.trim();
    if (!word.startsWith("mosaic-invite.")) throw new Error("the invitation starts with 'mosaic-invite.'");
    const inv = JSON.parse(new TextDecoder().decode(fromB64(word.slice("mosaic-invite.".length))));
    const file = JSON.parse(await document.getElementById("join-key").files[0].text());
    const pem = String(file.privateKey ?? "").replace(/-----[A-Z ]+-----/g, "").replace(/\\s+/g, "");
    const key = await crypto.subtle.importKey("pkcs8", fromB64(pem), { name: "Ed25519" }, false, ["sign"]);
    const ts = Math.floor(Date.now() / 1000);
    const message = "mosaic-account-join:" + location.host + ":" + ts + ":" + inv.account + ":" + inv.sig;
    const sig = b64url(await crypto.subtle.sign({ name: "Ed25519" }, key, new TextEncoder().encode(message)));
    const res = await fetch("/api/accounts/join", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ publicKey: file.publicKey, ts, invitation: word, sig }) });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error?.message ?? "HTTP " + res.status);
    result.textContent = body.machine_id + " joined " + body.account.name + ".";
    if (location.pathname !== "/account/" + body.account.id) location.assign("/account/" + body.account.id);
    else setTimeout(() => location.reload(), 800);
  } catch (err) {
    result.textContent = "Not joined: " + (err instanceof Error ? err.message : String(err));
  }
});
</script>`;
