import { describe, expect, it } from "vitest";
import { devArgs, devEnv } from "../../scripts/start/dev-args.ts";

/** `npm start`'s wrangler arguments: defaults the user can replace, never an option given twice. */
describe("npm start arguments", () => {
  const count = (args: string[], name: string) => args.filter((a) => a === `--${name}` || a.startsWith(`--${name}=`)).length;

  it("defaults to a local development run on 127.0.0.1:8787 with state in .wrangler/state and the dev routes on", () => {
    expect(devArgs([], {})).toEqual(["dev", "--local", "--ip", "127.0.0.1", "--port", "8787", "--persist-to", ".wrangler/state", "--var", "MOSAIC_DEV:1"]);
  });

  it("takes the user's --port (both spellings) instead of the default, and PORT from the environment", () => {
    for (const args of [["--port", "9000"], ["--port=9000"]]) {
      const out = devArgs(args, { PORT: "7000" });
      expect(count(out, "port")).toBe(1);
      expect(out.slice(-args.length)).toEqual(args);
    }
    expect(devArgs([], { PORT: "9000" })).toEqual(["dev", "--local", "--ip", "127.0.0.1", "--port", "9000", "--persist-to", ".wrangler/state", "--var", "MOSAIC_DEV:1"]);
    expect(devArgs([], { PORT: " " })).toContain("8787");
  });

  it("passes every other argument through, replacing the matching default (--ip, --persist-to, --remote)", () => {
    const out = devArgs(["--ip", "0.0.0.0", "--persist-to", "/tmp/x", "--var", "MOSAIC_DEV:1"], { IP: "10.0.0.1" });
    expect(out).toEqual(["dev", "--local", "--port", "8787", "--ip", "0.0.0.0", "--persist-to", "/tmp/x", "--var", "MOSAIC_DEV:1"]);
    expect(devArgs([], { IP: "::1" })).toContain("::1");
    expect(devArgs(["--remote"], {})).not.toContain("--local");
  });

  it("refuses a PORT that is not a port number", () => {
    for (const bad of ["abc", "0", "70000", "80.5", "-1"]) expect(() => devArgs([], { PORT: bad }), bad).toThrow(/PORT must be a port number/);
  });

  it("runs wrangler with its per-invocation trace store off unless the user sets X_LOCAL_OBSERVABILITY", () => {
    expect(devEnv({ HOME: "/h" })).toEqual({ HOME: "/h", X_LOCAL_OBSERVABILITY: "false" });
    expect(devEnv({ X_LOCAL_OBSERVABILITY: "true" }).X_LOCAL_OBSERVABILITY).toBe("true");
  });
});
