import { Hono } from "hono";
import type { Env } from "../env";
import { ACCOUNT_ID_RE } from "../identity/account-messages";
import { accountPageHtml } from "../identity/account-page";
import {
  accountCreateSchema,
  accountJoinSchema,
  accountNameSchema,
  accountUnlinkSchema,
  createAccount,
  joinAccount,
  renameAccount,
  unlinkAccount,
  type AccountAnswer,
} from "../identity/account-requests";
import { accountDocument, accountsOf } from "../identity/accounts-api";
import { MACHINE_ID_RE } from "../referee/agent-id";
import { facts, origin, readJson, refuse, type Ctx } from "./identity-routes";
import { hostGuard } from "./middleware/origin-host";

/** Machines one `GET /api/accounts?machine=…` may ask about. */
const MAX_MACHINES = 200;

const BAD_ACCOUNT_ID = "account id (the :id of /api/accounts/:id) must be 'a-' followed by 16 lowercase hex digits";

/** Accounts (SPEC §8.2): signed requests that link machines, and the public reads. */
export function accountRoutes(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  // Signed over the Host, like the key requests: one signed for another server's name is not taken here.
  app.use("/api/accounts/*", hostGuard((message) => Response.json({ error: { code: "wrong_host", message } }, { status: 403 })));
  app.use("/api/accounts", hostGuard((message) => Response.json({ error: { code: "wrong_host", message } }, { status: 403 })));

  app.post("/api/accounts", async (c) => {
    const body = await readJson(c, accountCreateSchema);
    return body.ok ? done(c, await createAccount(c.env, body.value, facts(c))) : refuse(c, body);
  });
  app.post("/api/accounts/join", async (c) => {
    const body = await readJson(c, accountJoinSchema);
    return body.ok ? done(c, await joinAccount(c.env, body.value, facts(c))) : refuse(c, body);
  });
  app.post("/api/accounts/unlink", async (c) => {
    const body = await readJson(c, accountUnlinkSchema);
    return body.ok ? done(c, await unlinkAccount(c.env, body.value, facts(c))) : refuse(c, body);
  });
  app.post("/api/accounts/name", async (c) => {
    const body = await readJson(c, accountNameSchema);
    return body.ok ? done(c, await renameAccount(c.env, body.value, facts(c))) : refuse(c, body);
  });

  // Which account each machine is in: `?machine=m-…&machine=m-…` (the site's leaderboard column, the CLI's `account show`).
  app.get("/api/accounts", async (c) => {
    const machines = c.req.queries("machine") ?? [];
    if (machines.length === 0) return c.json({ error: { code: "bad_input", message: "machine is required: GET /api/accounts?machine=m-…[&machine=m-…]" } }, 400);
    if (machines.length > MAX_MACHINES) return c.json({ error: { code: "bad_input", message: `machine: at most ${MAX_MACHINES} machines per request` } }, 400);
    const bad = machines.find((m) => !MACHINE_ID_RE.test(m));
    if (bad !== undefined) return c.json({ error: { code: "bad_input", message: `machine must be 'm-' followed by 16 lowercase hex digits (got ${JSON.stringify(bad.slice(0, 40))})` } }, 400);
    return c.json({ accounts: await accountsOf(c.env, machines) }, 200, { "Cache-Control": "public, max-age=30" });
  });

  app.get("/api/accounts/:id", async (c) => {
    const id = c.req.param("id");
    if (!ACCOUNT_ID_RE.test(id)) return c.json({ error: { code: "bad_input", message: BAD_ACCOUNT_ID } }, 400);
    const doc = await accountDocument(c.env, id);
    if (!doc) return c.json({ error: { code: "missing", message: `no account ${id} exists here (parameter id)` } }, 404);
    return c.json(doc, 200, { "Cache-Control": "public, no-cache" });
  });

  // The account as a page: its machines and how a machine joins from the CLI.
  app.get("/account/:id", async (c) => {
    const id = c.req.param("id");
    const doc = ACCOUNT_ID_RE.test(id) ? await accountDocument(c.env, id) : null;
    const status = !ACCOUNT_ID_RE.test(id) ? 400 : doc ? 200 : 404;
    const o = origin(c);
    return c.html(accountPageHtml(id, doc, `${o.scheme}://${o.host}`), status);
  });

  return app;
}

function done(c: Ctx, r: AccountAnswer): Response {
  if (!r.ok) return refuse(c, r);
  return c.json({ account: r.account, machine_id: r.machineId }, 200, { "Cache-Control": "no-store" });
}
