// The account column on the site's leaderboard and the account page, in Chromium against wrangler dev (SPEC §8.2).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createAccount, invite, joinAccount } from "../support/accounts";
import { browserPerFile, openPage, screenshot, type WatchedPage } from "../support/browser";
import { newMachine } from "../support/identity";
import { McpTeam, newPlayer, startPlaying } from "./play-helpers";

const baseUrl = inject("baseUrl");
const browser = browserPerFile();
const scratch = mkdtempSync(join(tmpdir(), "mosaic-site-accounts-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("accounts on the site", () => {
  let team: McpTeam;
  let gameId: string;
  let w: WatchedPage;
  let account: { id: string; name: string };
  let host: Awaited<ReturnType<typeof newPlayer>>;

  beforeAll(async () => {
    host = await newPlayer(baseUrl);
    const started = await startPlaying(host.client, { kind: "scatter", G: 40 });
    gameId = started.gameId;
    team = new McpTeam(baseUrl, gameId, started.field);
    await team.add(host);
    await team.pass();
    account = await createAccount(baseUrl, host.machine, "Ada's machines");
  });
  afterAll(async () => {
    await w?.context.close();
    await team?.close();
  });

  it("the leaderboard tab shows each machine's account, linked to its page", async () => {
    w = await openPage(browser(), baseUrl, `/?game=${gameId}`);
    await w.page.getByRole("tab", { name: "Leaderboard" }).click();
    const row = w.page.locator(`table.leaderboard tbody tr[data-row="${host.machine.machineId}"]`);
    await expect.poll(() => row.locator("td").nth(2).innerText()).toBe("Ada's machines");
    expect(await w.page.locator("table.leaderboard th[data-key=account]").innerText()).toContain("Account");
    expect(await row.locator("td a").first().getAttribute("href")).toBe(`/account/${account.id}`);
    // The server's JSON says the same.
    const board = (await (await fetch(`${baseUrl}/api/games/${gameId}/leaderboard`)).json()) as { rows: Array<{ machine: string; account: unknown }> };
    expect(board.rows.find((r) => r.machine === host.machine.machineId)?.account).toEqual(account);
    await screenshot(w.page, "leaderboard-account");
    expect(w.errors).toEqual([]);
    expect(w.foreignRequests).toEqual([]);
  });

  it("the account page lists its machines and how to link more", async () => {
    const other = newMachine();
    await joinAccount(baseUrl, host.machine, other, account.id);
    await w.page.goto(`${baseUrl}/account/${account.id}`);
    expect(await w.page.locator("#account-name").innerText()).toBe("Ada's machines");
    const machines = await w.page.locator("#machines tbody tr td:first-child").allInnerTexts();
    expect(machines).toEqual([host.machine.machineId, other.machineId]);
    expect(await w.page.locator("pre").first().innerText()).toContain(`npm run identity -- account join ${baseUrl} mosaic-invite.`);
    expect(w.errors).toEqual([]);
  });

  it("a key file's holder accepts an invitation in the browser; the key file stays in the page", async () => {
    const browserMachine = newMachine();
    const keyFile = join(scratch, "identity.json");
    writeFileSync(keyFile, JSON.stringify({ machine_id: browserMachine.machineId, publicKey: browserMachine.publicKeyRaw, privateKey: browserMachine.privateKey.export({ format: "pem", type: "pkcs8" }) }));
    // Dated apart from the invitation the previous test used (the same second would make the same invitation).
    const { word } = invite(baseUrl, host.machine, account.id, Math.floor(Date.now() / 1000) - 5);
    const sent: string[] = [];
    w.page.on("request", (r) => {
      if (r.method() === "POST") sent.push(r.postData() ?? "");
    });
    await w.page.goto(`${baseUrl}/account/${account.id}`);
    await w.page.locator("#join-invitation").fill(word);
    await w.page.locator("#join-key").setInputFiles(keyFile);
    await w.page.getByRole("button", { name: "Join this account" }).click();
    await expect.poll(() => w.page.locator("#join-result").innerText()).toBe(`${browserMachine.machineId} joined Ada's machines.`);
    // The page reloads itself to show the new member.
    await expect.poll(() => w.page.locator("#machines tbody tr td:first-child").allInnerTexts(), { timeout: 10_000 }).toContain(browserMachine.machineId);
    // One request left the page: the acceptance, without the private key.
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toContain("PRIVATE KEY");
    expect(JSON.parse(sent[0])).toMatchObject({ publicKey: browserMachine.publicKeyRaw, invitation: word });
    // The same invitation again is refused, and the page says why.
    await w.page.locator("#join-invitation").fill(word);
    await w.page.locator("#join-key").setInputFiles(keyFile);
    await w.page.getByRole("button", { name: "Join this account" }).click();
    await expect.poll(() => w.page.locator("#join-result").innerText()).toMatch(/^Not joined: replayed invitation/);
    // Chromium logs the refusal's 409 on the console; nothing else may be there.
    expect(w.errors.filter((e) => !e.includes("status of 409 (Conflict)"))).toEqual([]);
  });
});
