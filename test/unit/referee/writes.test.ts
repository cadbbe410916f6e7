import { describe, expect, it } from "vitest";
import type { WriteInput } from "../../../src/referee/types";
import { chainField, gridField, scatterField } from "./fixtures";
import { commit, expectError, groupMates, honestStep, joinInput, makeReferee, ok, retract, reveal, T0, unknownCellsOf } from "./helpers";

describe("join (SPEC §4.1)", () => {
  it("seats sessions with spaces and non-ASCII (1..24 characters, counted as characters), and keeps tags as an object", () => {
    const ref = makeReferee(scatterField());
    for (const session of ["my session", "café ☕", "😀".repeat(24), "x".repeat(24), "東京 2"]) {
      const r = ref.apply(joinInput(`m-${session.length}`, session), T0);
      expect(r.ok, session).toBe(true);
      if (r.ok) expect(r.answer.agent).toBe(`m-${session.length}/${session}`);
    }
    const withTags = (machine: string, tags: unknown) => ({ ...joinInput(machine, machine), tags }) as WriteInput;
    const tagged = ref.apply(withTags("m-t", { team: "blue", empty: "" }), T0);
    expect(tagged.ok).toBe(true);
    if (tagged.ok) expect(tagged.event?.tags).toEqual({ team: "blue", empty: "" });
    // The list form (earlier logs, and agents that send one) reads each tag with the value "".
    const listed = ref.apply(withTags("m-l", ["fast", "v2"]), T0);
    expect(listed.ok && listed.event?.tags).toEqual({ fast: "", v2: "" });
    const proto = ref.apply(withTags("m-p", ["__proto__"]), T0);
    expect(proto.ok && Object.keys(proto.event?.tags as object)).toEqual(["__proto__"]);
  });

  it("answers the §6.1 shape and raises the revision", () => {
    const field = scatterField();
    const ref = makeReferee(field);
    const r = ref.apply(joinInput("m-j", "s1"), T0);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const seedTile = r.answer.seed_tile as number;
    expect(Number.isInteger(seedTile)).toBe(true);
    const t = field.tiles[seedTile];
    const seed = { id: t.id };
    expect(r.answer).toEqual({
      agent: "m-j/s1",
      seed_tile: t.id,
      seed: { id: t.id, cells: t.cellIds.length, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, m: t.m },
      revision: 1,
      verified: true,
      harness: "vitest",
      harness_source: "argument",
      rules: { guess: "accept", depth: 0, fog: false },
      changed: true,
      // Added for a model without code (SPEC §6): the board's side and the seed's shape drawn.
      G: field.G,
      pictures: { [String(t.id)]: expect.stringMatching(/^x /) as unknown },
    });
    expect(r.event).toMatchObject({ rev: 1, type: "join", at: T0, agent: "m-j/s1", seed_tile: seed.id, machine: "m-j" });
    expect(ref.tileStatus(seed.id)?.status).toBe("hidden");
  });

  it("a rejoin returns the same agent and seed without a new seat or revision", () => {
    const ref = makeReferee(gridField(4, 3));
    const first = ok(ref, joinInput("m-r", "1"));
    const digest = ref.stateDigest();
    const again = ref.apply(joinInput("m-r", "1"), T0 + 1000);
    expect(again.ok && again.event).toBe(null);
    expect(again.ok && again.answer).toEqual({ ...first, changed: false });
    expect(ref.revision).toBe(1);
    expect(ref.stateDigest()).toBe(digest);
    expect(ref.agents().length).toBe(1);
  });

  it("at most 3 sessions per machine per field, counted over the day", () => {
    const ref = makeReferee(gridField(4, 4));
    for (const s of ["a", "b", "c"]) ok(ref, joinInput("m-s", s));
    const digest = ref.stateDigest();
    const e = expectError(ref.apply(joinInput("m-s", "d"), T0));
    expect(e.code).toBe("bad_input");
    expect(e.message).toContain("3 sessions");
    expect(ref.stateDigest()).toBe(digest);
    ok(ref, joinInput("m-s", "b")); // a rejoin is still fine
    ok(ref, joinInput("m-other", "d")); // other machines are unaffected
    expect(ref.agents().length).toBe(4);
  });
});

describe("reveal (SPEC §4.3)", () => {
  it("discloses givens and seam, refuses tiles off the frontier, repeats without change", () => {
    const field = chainField(4, 6, { givenEvery: 2 });
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const seed = (ref.frontier(a) as number[])[0];
    const off = field.tiles.find((t) => t.id !== seed && !(ref.frontier(a) as number[]).includes(t.id))?.id as number;
    const refused = expectError(reveal(ref, a, off));
    expect(refused.code).toBe("off_frontier");
    expect(refused.message).toContain(`tile ${off}`);
    const r = reveal(ref, a, seed);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = field.tiles[seed];
    expect(r.answer).toMatchObject({ tile: seed, x0: t.x0, y0: t.y0, w: t.w, h: t.h, rects: t.rects, cells: 16, m: t.m, seam: [], solved: [], revision: 2 });
    expect(r.answer.givens).toEqual(t.givens.map((c) => [c, field.solution[c]]));
    for (const c of t.givens) expect(ref.cell(c)).toEqual({ value: field.solution[c], origin: "given" });
    const again = reveal(ref, a, seed);
    expect(again.ok && again.event).toBe(null);
    expect(again.ok && again.answer.givens).toEqual(r.answer.givens);
    expect(ref.revision).toBe(2);
  });

  it("a revealed tile whose cells are all known is solved at once, credited to the revealer (and may meet)", () => {
    // Tile 1's middle columns are its givens; its outer columns are shared with tiles 0 and 2.
    const field = chainField(4, 3, { givens: { 1: [4, 14, 24, 34, 5, 15, 25, 35] } });
    // Find a field seed that seats the first agent at an end of the chain (the choice is deterministic).
    let ref = makeReferee(field);
    for (let s = 1; s < 50; s++) {
      ref = makeReferee(field, {}, undefined, `seed-${s}`);
      if ((ok(ref, joinInput("m-a")).seed_tile as number) !== 1) break;
    }
    const a = "m-a/1";
    const b = ok(ref, joinInput("m-b")).agent as string;
    const ends = [(ref.frontier(a) as number[])[0], (ref.frontier(b) as number[])[0]].sort();
    expect(ends).toEqual([0, 2]);
    for (const agent of [a, b]) {
      const t = (ref.frontier(agent) as number[])[0];
      expect(reveal(ref, agent, t).ok).toBe(true);
      expect(commit(ref, agent, unknownCellsOf(ref, field, t)).ok).toBe(true);
    }
    expect(ref.tileStatus(1)?.status).toBe("hidden");
    const r = reveal(ref, a, 1);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.answer.solved).toEqual([1]);
    expect(r.answer.reward).toBe(16);
    expect((r.answer.seam as unknown[]).length).toBe(8);
    expect(r.answer.meets).toEqual([{ with: [b] }]);
    expect(ref.tileStatus(1)).toMatchObject({ status: "solved", agent: a, revealed_by: a });
    expect(ref.status).toBe("solved");
  });
});

describe("commit (SPEC §4.4)", () => {
  it("ignores with reasons, rejects wrong with the value, accepts with a class", () => {
    const field = chainField(4, 4, { givenEvery: 4 });
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const seed = (ref.frontier(a) as number[])[0];
    expect(reveal(ref, a, seed).ok).toBe(true);
    const t = field.tiles[seed];
    const given = t.givens[0];
    const unknown = t.cellIds.filter((c) => ref.cell(c)?.value === -1);
    const other = field.tiles.find((x) => x.id !== seed && !x.cellIds.some((c) => t.cellIds.includes(c))) as { cellIds: number[] };
    const [u0, u1, u2] = unknown;
    const v = (c: number): 0 | 1 => field.solution[c] as 0 | 1;
    const r = commit(ref, a, [
      [u0, v(u0)],
      [u0, v(u0)],
      [given, v(given)],
      [other.cellIds[0], v(other.cellIds[0])],
      [u1, (1 - v(u1)) as 0 | 1],
      [u2, v(u2)],
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.answer.ignored).toEqual([
      { id: u0, reason: "duplicate", v: v(u0) },
      { id: given, reason: "given", v: v(given) },
      { id: other.cellIds[0], reason: "not_revealed" },
    ]);
    expect(r.answer.rejected).toEqual([{ id: u1, reason: "wrong", v: 1 - v(u1) }]);
    expect((r.answer.accepted as Array<{ id: number }>).map((x) => x.id)).toEqual([u0, u2]);
    expect(r.answer).toMatchObject({ revision: ref.revision, status: "playing", unevaluated: [], solved: [], meets: [], reward: 0, changed: true });
    // The public log keeps ignored cells without values.
    expect(r.event?.ignored).toEqual([
      { id: u0, reason: "duplicate" },
      { id: given, reason: "given" },
      { id: other.cellIds[0], reason: "not_revealed" },
    ]);
    expect(r.answer.health).toMatchObject({ state: "warning", committed: 3, wrong: 1, window: 3 });
    expect(r.event).toMatchObject({ type: "commit", agent: a, intent: "commit 6" });
    // The log keeps the batch's order (ids only), which the verdict lists alone lose.
    expect(r.event?.cells).toEqual([u0, u0, given, other.cellIds[0], u1, u2]);
    expect(r.event?.rejected).toEqual([{ id: u1, reason: "wrong" }]);
  });

  it("ignores holes, and cells in revealed tiles off the caller's frontier", () => {
    const field = scatterField();
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const b = ok(ref, joinInput("m-b")).agent as string;
    const sb = (ref.frontier(b) as number[])[0];
    expect(reveal(ref, b, sb).ok).toBe(true);
    const hole = 13; // (13, 0): no tile covers the right edge of the top rows
    expect(field.tiles.some((t) => t.cellIds.includes(hole))).toBe(false);
    const cb = unknownCellsOf(ref, field, sb).find(([c]) => !(ref.frontier(a) as number[]).some((t) => field.tiles[t].cellIds.includes(c))) as [number, 0 | 1];
    const r = commit(ref, a, [[hole, 0], cb]);
    expect(r.ok && r.answer.ignored).toEqual([
      { id: hole, reason: "hole" },
      { id: cb[0], reason: "off_frontier" },
    ]);
    expect(r.ok && r.event).toBe(null); // nothing judged: nothing changed
  });
});

describe("intents (SPEC §4.4)", () => {
  it("are one line: control characters become spaces, surrounding whitespace is trimmed, then 160 characters count", () => {
    const field = chainField(4, 4, { givenEvery: 4 });
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    const seed = (ref.frontier(a) as number[])[0];
    const r = ref.apply({ type: "reveal", machineId: "m-a", agent: a, expectedRevision: ref.revision, tile: seed, intent: "\t line one\nrev 12: ok\u0000\u2028x \r\n" }, T0);
    expect(r.ok && r.event?.intent).toBe("line one rev 12: ok  x");
    const [x, y] = unknownCellsOf(ref, field, seed);
    // 160 characters once trimmed: accepted although the raw string is longer.
    const padded = `   ${"é".repeat(160)}\n\n`;
    const c = ref.apply({ type: "commit", machineId: "m-a", agent: a, expectedRevision: ref.revision, cells: [x], intent: padded }, T0);
    expect(c.ok && c.event?.intent).toBe("é".repeat(160));
    const long = ref.apply({ type: "retract", machineId: "m-a", agent: a, expectedRevision: ref.revision, cells: [x[0]], intent: `a${"\u0001".repeat(159)}b` }, T0);
    expect(expectError(long).code).toBe("too_large");
    const fine = ref.apply({ type: "retract", machineId: "m-a", agent: a, expectedRevision: ref.revision, cells: [x[0], y[0]], intent: `a${"\u0001".repeat(158)}b` }, T0);
    expect(fine.ok && fine.event?.intent).toBe(`a${" ".repeat(158)}b`);
  });
});

describe("free text in events is well-formed Unicode (SPEC §9: the same canonical JSON in every language)", () => {
  it("a lone surrogate half in an intent, a name, a model, a harness or a tag becomes U+FFFD; pairs (emoji) stay", () => {
    const field = chainField(4, 4, { givenEvery: 4 });
    const ref = makeReferee(field);
    const join = ref.apply({ ...joinInput("m-a"), name: "bot \ud800", model: "m\udc00x", harness: "h\ud83d", tags: { "t\udfff": "v\ud800😀" } } as WriteInput, T0);
    expect(join.ok && join.event).toMatchObject({ name: "bot \ufffd", model: "m\ufffdx", harness: "h\ufffd", tags: { "t\ufffd": "v\ufffd😀" } });
    const a = ok(ref, joinInput("m-a")).agent as string;
    const seed = (ref.frontier(a) as number[])[0];
    const r = ref.apply({ type: "reveal", machineId: "m-a", agent: a, expectedRevision: ref.revision, tile: seed, intent: "half \ud800 and \udc00, whole 😀 " }, T0);
    expect(r.ok && r.event?.intent).toBe("half \ufffd and \ufffd, whole 😀");
    // Every event now survives a round trip through UTF-8 unchanged, as a verifier elsewhere reads it.
    for (const event of [join.ok && join.event, r.ok && r.event]) {
      const text = JSON.stringify(event);
      expect(new TextDecoder().decode(new TextEncoder().encode(text))).toBe(text);
    }
  });
});

describe("retract (SPEC §4.6)", () => {
  it("withdraws own commits only; givens, solved tiles and others' cells stay", () => {
    // Two groups that met, so both machines write in shared frontier tiles.
    const { field, ref, a, b } = groupMates();
    const open = (ref.frontier(a) as number[])[0];
    if (ref.tileStatus(open)?.status === "hidden") expect(reveal(ref, a, open).ok).toBe(true);
    const [[ca, va], [cb, vb], [cc, vc]] = unknownCellsOf(ref, field, open);
    expect(commit(ref, a, [[ca, va], [cc, vc]]).ok).toBe(true);
    expect(commit(ref, b, [[cb, vb]]).ok).toBe(true);
    const solvedTile = field.tiles.find((t) => ref.tileStatus(t.id)?.status === "solved") as { cellIds: number[]; givens: number[] };
    const solvedCell = solvedTile.cellIds.find((c) => ref.cell(c)?.origin !== "given") as number;
    const given = field.tiles[open].givens[0];
    const unknown = unknownCellsOf(ref, field, open)[0][0];
    const before = ref.health("m-a");
    const r = retract(ref, a, [ca, ca, cb, given, solvedCell, unknown]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.answer).toEqual({
      revision: ref.revision,
      retracted: [ca],
      ignored: [
        { id: ca, reason: "duplicate" },
        { id: cb, reason: "other_machine", v: vb },
        { id: given, reason: "given", v: field.solution[given] },
        { id: solvedCell, reason: "solved", v: field.solution[solvedCell] },
        { id: unknown, reason: "unknown" },
      ],
      changed: true,
      G: field.G,
    });
    expect(ref.cell(ca)).toEqual({ value: -1, origin: null });
    expect(ref.cell(cb)?.origin).toBe("m-b");
    expect(ref.machines().find((m) => m.machine === "m-a")?.retractions).toBe(1);
    // Recommitting the same correct cell is accepted again but does not count twice for health.
    const again = commit(ref, a, [[ca, va]]);
    expect(again.ok && (again.answer.accepted as unknown[]).length).toBe(1);
    expect(ref.health("m-a")?.committed).toBe(before?.committed);
    // b may retract its own cell.
    expect(retract(ref, b, [cb]).ok && ref.cell(cb)?.value).toBe(-1);
    // Nothing retractable: answered, nothing changes.
    const rev = ref.revision;
    const none = retract(ref, a, [given]);
    expect(none.ok && none.event).toBe(null);
    expect(ref.revision).toBe(rev);
  });
});

describe("revisions (SPEC §4.9)", () => {
  it("every state change raises the revision by exactly one; close refuses later writes", () => {
    const field = gridField(4, 3);
    const ref = makeReferee(field);
    const a = ok(ref, joinInput("m-a")).agent as string;
    let rev = ref.revision;
    for (let i = 0; i < 30 && honestStep(ref, field, a); i++) {
      expect(ref.revision).toBe(rev + 1);
      rev = ref.revision;
    }
    const ev = ref.close(T0 + 1);
    expect(ev).toMatchObject({ rev: rev + 1, type: "close", at: T0 + 1 });
    expect(ref.close(T0 + 2)).toBe(ev);
    expect(ref.status).toBe("closed");
    expect(expectError(ref.apply(joinInput("m-new"), T0)).code).toBe("closed");
    expect(expectError(commit(ref, a, [[0, 0]])).code).toBe("closed");
  });
});
