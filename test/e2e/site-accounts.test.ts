// The account column on the site's leaderboard and the account page, in Chromium against wrangler dev (SPEC §8.2).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createAccount, joinAccount } from "../support/accounts";
import { browserPerFile, openPage, screenshot, type WatchedPage } from "../support/browser";
import { newMachine } from "../support/identity";
import { McpTeam, newPlayer, startPlaying } from "./play-helpers";

const baseUrl = inject("baseUrl");
const browser = browserPerFile();

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
});
