import { describe, expect, it } from "vitest";
import { HistoryTables } from "../../../src/history/tables";
import { dateAt, historyDay, machineId } from "../../support/history-days";

const days = [
  historyDay(dateAt(0), [
    { machine: machineId(1), name: "Alpha", account: "a-1", agents: [{ model: "m-one", reward: 50, writes: 100 }, { model: "m-two", reward: 10, writes: 20 }] },
    { machine: machineId(2), name: "=cmd()", dead: true, agents: [{ model: "m-two", reward: 5, writes: 40 }] },
  ]),
  historyDay(dateAt(1), [
    { machine: machineId(1), name: "Alpha renamed", account: "a-1", agents: [{ model: "m-one", reward: 70, writes: 100, harness: "claude-code", harness_source: "transport" }] },
    { machine: machineId(3), agents: [{ model: "m two/slash", reward: 30, writes: 30 }] },
  ]),
];
const tables = new HistoryTables(days);
const get = async (url: string): Promise<{ status: number; doc: Record<string, unknown> }> => {
  const a = await tables.answerUrl(url);
  return { status: a.status, doc: a.contentType === "json" ? (JSON.parse(a.body) as Record<string, unknown>) : {} };
};

describe("the history's tables", () => {
  it("lists the days newest first with totals, archives and replays", async () => {
    const { status, doc } = await get("/api/history");
    expect(status).toBe(200);
    const list = doc.days as Array<Record<string, unknown>>;
    expect(list.map((d) => d.day)).toEqual([dateAt(1), dateAt(0)]);
    expect(list[1]).toMatchObject({ machines: 2, agents: 3, reward: 65, writes: 160, deaths: 1, replay: `/replay/day-${dateAt(0)}`, archive: `/api/archives/day-${dateAt(0)}.json.gz` });
    expect(doc.totals).toEqual({ days: 2, machines: 3, accounts: 1, models: 3, harnesses: 2 });
  });

  it("sums a leaderboard by machine, account, model and harness over a range", async () => {
    const byMachine = (await get("/api/history/leaderboard?by=machine")).doc.rows as Array<Record<string, unknown>>;
    expect(byMachine[0]).toMatchObject({ key: machineId(1), name: "Alpha renamed", days: 2, reward: 130, writes: 220, reward_per_write: 0.5909 });
    const byModel = (await get("/api/history/leaderboard?by=model")).doc.rows as Array<Record<string, unknown>>;
    expect(byModel.find((r) => r.key === "m-two")).toMatchObject({ reward: 15, writes: 60, machines: 2, deaths: 1, self_reported: true });
    const byAccount = (await get("/api/history/leaderboard?by=account")).doc.rows as Array<Record<string, unknown>>;
    expect(byAccount.map((r) => [r.key, r.kind])).toEqual([
      ["a-1", "account"],
      [machineId(3), "machine"],
      [machineId(2), "machine"],
    ]);
    const byHarness = (await get("/api/history/leaderboard?by=harness")).doc.rows as Array<Record<string, unknown>>;
    expect(byHarness.find((r) => r.key === "claude-code")).toMatchObject({ self_reported: false, reward: 70 });
    const oneDay = (await get(`/api/history/leaderboard?by=machine&from=${dateAt(1)}&to=${dateAt(1)}`)).doc;
    expect(oneDay.days).toBe(1);
    expect((oneDay.rows as Array<Record<string, unknown>>).map((r) => r.key)).toEqual([machineId(1), machineId(3)]);
  });

  it("gives one entry's days as a series, each point linking to its replay", async () => {
    const model = (await get(`/api/history/models/${encodeURIComponent("m two/slash")}`)).doc;
    expect(model).toMatchObject({ kind: "model", key: "m two/slash", self_reported: true, days: 1 });
    const machine = (await get(`/api/history/machines/${machineId(1)}`)).doc;
    const points = machine.points as Array<Record<string, unknown>>;
    expect(points.map((p) => [p.day, p.reward, p.replay])).toEqual([
      [dateAt(0), 60, `/replay/day-${dateAt(0)}`],
      [dateAt(1), 70, `/replay/day-${dateAt(1)}`],
    ]);
    expect((await get("/api/history/accounts/a-1")).doc.days).toBe(2);
  });

  it("refuses bad parameters with a JSON error naming the parameter", async () => {
    const cases: Array<[string, number, RegExp]> = [
      ["/api/history/leaderboard?by=planet", 400, /^by must be one of machine, account, model, harness/],
      ["/api/history/ratings?by=account", 400, /^by must be one of model, harness, machine/],
      [`/api/history/leaderboard?from=${dateAt(1)}&to=${dateAt(0)}`, 400, /^from .* is after to/],
      ["/api/history/leaderboard?from=2031-02-30", 400, /^from must be a date/],
      ["/api/history/leaderboard?to=yesterday", 400, /^to must be a date/],
      ["/api/history/leaderboard?sort=reward", 400, /unknown parameter "sort"/],
      ["/api/history/models/nobody", 404, /^no model "nobody"/],
      [`/api/history/machines/${machineId(9)}`, 404, /^no machine/],
      ["/api/history/accounts/a-none", 404, /^no account/],
      ["/api/history/models/%E0%A4%A", 400, /not a well-formed/],
      ["/api/history/elsewhere", 404, /no such route/],
    ];
    for (const [url, status, message] of cases) {
      const a = await tables.answerUrl(url);
      expect([url, a.status]).toEqual([url, status]);
      const err = (JSON.parse(a.body) as { error: { code: string; message: string } }).error;
      expect(err.code).toBe(status === 400 ? "bad_input" : "missing");
      expect(err.message).toMatch(message);
    }
  });

  it("downloads the whole history as JSON and as CSV, a formula-like name defused", async () => {
    const full = JSON.parse((await tables.answerUrl("/api/history/download.json")).body) as { format: string; days: unknown[] };
    expect(full.format).toBe("mosaic-history-v1");
    expect(full.days).toEqual(days);
    const csv = (await tables.answerUrl("/api/history/download.csv")).body.split("\r\n");
    expect(csv[0].split(",")).toContain("forced_share");
    expect(csv).toHaveLength(1 + 4 + 1);
    expect(csv[2]).toContain(",'=cmd(),");
    expect(csv[1]).toContain("m-one;m-two");
  });

  it("publishes every table under a fixed list of paths, each answering 200", async () => {
    const paths = tables.publishedPaths();
    expect(paths).toContain(`/api/history/models/${encodeURIComponent("m two/slash")}`);
    expect(paths).toContain("/api/history/accounts/a-1");
    for (const p of paths) expect((await tables.answerUrl(p)).status).toBe(200);
  });
});
