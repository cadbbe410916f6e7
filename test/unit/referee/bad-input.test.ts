import { describe, expect, it } from "vitest";
import type { WriteInput } from "../../../src/referee/types";
import { gridField } from "./fixtures";
import { honestStep, joinInput, makeReferee, ok, T0 } from "./helpers";

/** Every bad write of SPEC §12 that reaches the referee: a specific code and message, no change. */
describe("bad input changes nothing", () => {
  const field = gridField(4, 4);
  const ref = makeReferee(field);
  const a = ok(ref, joinInput("m-a")).agent as string;
  const b = ok(ref, joinInput("m-b")).agent as string;
  for (let i = 0; i < 5; i++) honestStep(ref, field, a);
  for (let i = 0; i < 3; i++) honestStep(ref, field, b);
  const frontier = ref.frontier(a) as number[];
  const open = frontier.find((t) => ref.tileStatus(t)?.status === "revealed") ?? frontier[0];
  const cell = field.tiles[open].cellIds.find((c) => ref.cell(c)?.value === -1) ?? 0;
  const rev = (): number => ref.revision;
  const commitOf = (over: Record<string, unknown>): WriteInput =>
    ({ type: "commit", machineId: "m-a", agent: a, expectedRevision: rev(), cells: [[cell, 0]], intent: "x", ...over }) as WriteInput;
  const revealOf = (over: Record<string, unknown>): WriteInput =>
    ({ type: "reveal", machineId: "m-a", agent: a, expectedRevision: rev(), tile: frontier[0], intent: "x", ...over }) as WriteInput;
  const retractOf = (over: Record<string, unknown>): WriteInput =>
    ({ type: "retract", machineId: "m-a", agent: a, expectedRevision: rev(), cells: [cell], intent: "x", ...over }) as WriteInput;
  const G2 = field.G * field.G;
  // A tile b's group solved, while a's group is still apart from b's.
  const solvedByOther = field.tiles.find((t) => ref.tileStatus(t.id)?.agent === b && !(ref.groupOf(a) as string[]).includes(b))?.id ?? -1;

  const cases: Array<[string, () => unknown, string, string?]> = [
    ["not an object", () => null, "bad_input"],
    ["unknown type", () => ({ type: "explode" }), "bad_input", "unknown write type"],
    ["join without session", () => ({ ...joinInput("m-c"), session: "" }), "bad_input", "session"],
    ["join with a numeric name", () => ({ ...joinInput("m-c"), name: 5 }), "bad_input", "name"],
    ["join with a slash in the machine id", () => ({ ...joinInput("m-c/x"), session: "1" }), "bad_input", "machineId"],
    ["join with bad tags", () => ({ ...joinInput("m-c"), tags: [1] }), "bad_input", "tags"],
    ["join with a non-string tag value", () => ({ ...joinInput("m-c"), tags: { team: 5 } }), "bad_input", "tags"],
    ["join with 33 tags", () => ({ ...joinInput("m-c"), tags: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`t${i}`, ""])) }), "bad_input", "tags"],
    ["join with a slash in the session", () => joinInput("m-c", "a/b"), "bad_input", "'/'"],
    ["join with a 25-character session", () => joinInput("m-c", "x".repeat(25)), "bad_input", "at most 24"],
    ["join with a newline in the session", () => joinInput("m-c", "a\nb"), "bad_input", "printable"],
    ["join with a direction override in the session", () => joinInput("m-c", "a\u202eb"), "bad_input", "printable"],
    ["unknown agent", () => commitOf({ agent: "m-zz/1", machineId: "m-zz" }), "not_seated", "join first"],
    ["another machine's agent", () => commitOf({ machineId: "m-b" }), "not_your_agent"],
    ["agent missing", () => commitOf({ agent: undefined }), "bad_input"],
    ["cell out of range", () => commitOf({ cells: [[G2, 0]] }), "bad_input", "out of range"],
    ["negative cell", () => commitOf({ cells: [[-1, 0]] }), "bad_input"],
    ["fractional cell", () => commitOf({ cells: [[1.5, 0]] }), "bad_input"],
    ["value 2", () => commitOf({ cells: [[cell, 2]] }), "bad_input", "0 or 1"],
    ["not a pair", () => commitOf({ cells: [[cell]] }), "bad_input"],
    ["no cells", () => commitOf({ cells: [] }), "bad_input"],
    ["cells not a list", () => commitOf({ cells: "0,1" }), "bad_input"],
    ["513 cells", () => commitOf({ cells: Array.from({ length: 513 }, (_, i) => [i, 0]) }), "too_large", "512"],
    ["intent too long", () => commitOf({ intent: "x".repeat(161) }), "too_large", "160"],
    ["intent not a string", () => commitOf({ intent: 7 }), "bad_input"],
    ["negative expected revision", () => commitOf({ expectedRevision: -1 }), "bad_input"],
    ["expected revision a string", () => commitOf({ expectedRevision: "3" }), "bad_input"],
    ["expected revision from the future", () => commitOf({ expectedRevision: rev() + 5 }), "conflict"],
    ["tile out of range", () => revealOf({ tile: field.tiles.length }), "bad_input", "tile"],
    ["tile negative", () => revealOf({ tile: -1 }), "bad_input"],
    ["tile not an integer", () => revealOf({ tile: "3" }), "bad_input"],
    ["tile off the frontier", () => revealOf({ tile: field.tiles.find((t) => !frontier.includes(t.id) && ref.tileStatus(t.id)?.status === "hidden")?.id }), "off_frontier"],
    ["tile already solved by another group", () => revealOf({ tile: solvedByOther }), "solved", "already solved"],
    ["revealed tile off the frontier", () => revealOf({ tile: field.tiles.find((t) => ref.tileStatus(t.id)?.status === "revealed" && !frontier.includes(t.id))?.id ?? -1 }), "off_frontier"],
    ["8193 retractions", () => retractOf({ cells: Array.from({ length: 8193 }, (_, i) => i % G2) }), "too_large", "8192"],
    ["retract out of range", () => retractOf({ cells: [G2 + 3] }), "bad_input"],
    ["retract nothing", () => retractOf({ cells: [] }), "bad_input"],
  ];

  for (const [name, build, code, fragment] of cases) {
    it(`${name} → ${code}`, () => {
      const digest = ref.stateDigest();
      const revision = ref.revision;
      const r = ref.apply(build() as WriteInput, T0);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe(code);
      expect(r.error.message.length).toBeGreaterThan(10);
      if (fragment) expect(r.error.message).toContain(fragment);
      if (code === "conflict") expect(r.error).toMatchObject({ revision, tiles: [], cells: [] });
      expect(ref.revision).toBe(revision);
      expect(ref.stateDigest()).toBe(digest);
    });
  }

  it("a bad timestamp is refused", () => {
    const digest = ref.stateDigest();
    const r = ref.apply(commitOf({}), Number.NaN);
    expect(!r.ok && r.error.code).toBe("bad_input");
    expect(ref.stateDigest()).toBe(digest);
  });

  it("a fourth session on a machine changes nothing", () => {
    const local = makeReferee(field);
    for (const s of ["1", "2", "3"]) ok(local, joinInput("m-x", s));
    const digest = local.stateDigest();
    expect(local.apply(joinInput("m-x", "4"), T0).ok).toBe(false);
    expect(local.stateDigest()).toBe(digest);
  });
});
