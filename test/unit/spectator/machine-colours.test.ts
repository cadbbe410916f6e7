import { describe, expect, it } from "vitest";
import { colourFamily, colourMachines, MACHINE_COLOURS, machineColour, machineSlot } from "../../../src/site/palette";

/** Machine ids as the identity service forms them: `m-` and 16 hex digits. */
function machineIds(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => `m-${(0x1f2e3d4c5b6a0000n + BigInt(from + i) * 7919n).toString(16).padStart(16, "0")}`);
}

/** The slot each id takes on a page that has coloured no field yet. */
function usualSlots(ids: string[]): number[] {
  return ids.map((id) => {
    colourMachines([id]);
    return machineSlot(id);
  });
}

describe("site: machine colours", () => {
  it("gives every machine of a field its own colour while there are colours enough, even when their ids hash alike", () => {
    const ids = machineIds(40);
    const usual = usualSlots(ids);
    // Twelve ids among which at least two share their usual colour, or this proves nothing.
    const field = ids.slice(0, MACHINE_COLOURS.length);
    expect(new Set(usual.slice(0, MACHINE_COLOURS.length)).size).toBeLessThan(MACHINE_COLOURS.length);
    colourMachines(field);
    expect(new Set(field.map(machineColour)).size).toBe(MACHINE_COLOURS.length);
    // A machine keeps its usual colour unless a machine that joined before it holds that one or
    // one that looks like it (while some family of hues is still free).
    const held = new Set<number>();
    field.forEach((id, i) => {
      const families = new Set([...held].map(colourFamily));
      const familyFree = !families.has(colourFamily(usual[i]));
      if (familyFree) expect(machineSlot(id)).toBe(usual[i]);
      if (families.size < 6) expect(families.has(colourFamily(machineSlot(id)))).toBe(false);
      held.add(machineSlot(id));
    });
  });

  it("never gives a field's first six machines look-alike hues, whatever their ids", () => {
    const families = new Set(Array.from({ length: MACHINE_COLOURS.length }, (_, slot) => colourFamily(slot)));
    expect(families.size).toBe(6);
    for (let from = 0; from < 400; from += 6) {
      const ids = machineIds(6, from);
      colourMachines(ids);
      expect(new Set(ids.map((id) => colourFamily(machineSlot(id)))).size, ids.join(" ")).toBe(6);
    }
  });

  it("colours a field the same on every page that lists its machines in join order, and a late joiner takes a free colour", () => {
    const ids = machineIds(6, 100);
    colourMachines(ids.slice(0, 5));
    const first = ids.map(machineSlot);
    colourMachines(machineIds(9, 500)); // another field in between
    colourMachines(ids.slice(0, 5));
    expect(ids.map(machineSlot)).toEqual(first);
    expect(new Set(first).size).toBe(6);
  });

  it("shares colours only past the palette's size", () => {
    const ids = machineIds(MACHINE_COLOURS.length + 3, 900);
    colourMachines(ids);
    expect(new Set(ids.map(machineSlot)).size).toBe(MACHINE_COLOURS.length);
  });
});
