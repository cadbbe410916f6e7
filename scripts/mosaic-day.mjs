#!/usr/bin/env node
// Open and close the daily field of a local server at once (development mode, MOSAIC_DEV=1, as
// `npm start` runs it). Plain Node 20 or later, no dependencies. Run with --help for usage.

const USAGE = `usage: npm run day -- <command> [options]

commands:
  open   [--date YYYY-MM-DD] [--chunks N] [--chunk-g N] [--canvas G]
         [--every-minutes M] [--coverage F]
                  open the day (today, UTC, by default) at once; without options it has the
                  daily parameters, with them a smaller day for trying things out. Opening a
                  day that is open answers it unchanged. Prints {"game_id", "created"}.
  close  [--date YYYY-MM-DD]
                  close the day at once and write its archive; prints where it is

options:
  --url URL       the server (default: $MOSAIC_URL, else http://127.0.0.1:$PORT, as npm start
                  reads it, else http://127.0.0.1:8787)
  --help          this text`;

function fail(message) {
  process.stderr.write(`mosaic-day: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  // The same port `PORT=… npm start` listens on, so the two commands agree without --url.
  const out = { command: argv[0], url: process.env.MOSAIC_URL ?? `http://127.0.0.1:${process.env.PORT || 8787}`, params: {}, grow: {} };
  const number = (v, flag) => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n)) fail(`${flag} needs a number`);
    return n;
  };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    if (a === "--help" || a === "-h") {
      process.stdout.write(USAGE + "\n");
      process.exit(0);
    } else if (a === "--url") (out.url = v), i++;
    else if (a === "--date") (out.date = v), i++;
    else if (a === "--chunks") (out.params.chunks = number(v, a)), i++;
    else if (a === "--chunk-g") (out.params.chunk_g = number(v, a)), i++;
    else if (a === "--canvas") (out.params.G = number(v, a)), i++;
    else if (a === "--every-minutes") (out.grow.every_minutes = number(v, a)), i++;
    else if (a === "--coverage") (out.grow.frontier_coverage = number(v, a)), i++;
    else fail(`unknown argument ${a}\n${USAGE}`);
  }
  return out;
}

async function post(url, path, body) {
  let res;
  try {
    res = await fetch(new URL(path, url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch (err) {
    fail(`cannot reach ${url}: ${err.cause?.message ?? err.message} (is the server running? npm start)`);
  }
  const text = await res.text();
  if (res.status === 404 && !text.includes('"code"')) fail(`${url} has no dev routes: run it with MOSAIC_DEV=1 (npm start does)`);
  if (!res.ok) {
    let message = text;
    try {
      message = JSON.parse(text).error.message;
    } catch {}
    fail(`${res.status}: ${message}`);
  }
  return JSON.parse(text);
}

const args = parseArgs(process.argv.slice(2));
if (args.command === "open") {
  const params = { ...args.params, ...(Object.keys(args.grow).length > 0 ? { grow: args.grow } : {}) };
  const body = { ...(args.date ? { date: args.date } : {}), ...(Object.keys(params).length > 0 ? { params } : {}) };
  const r = await post(args.url, "/api/dev/day/open", body);
  process.stdout.write(JSON.stringify(r) + "\n");
  process.stderr.write(`${r.created ? "opened" : "already open:"} ${r.game_id} — watch ${args.url}/?game=${r.game_id}\n`);
} else if (args.command === "close") {
  const date = args.date ?? new Date().toISOString().slice(0, 10);
  const r = await post(args.url, "/api/dev/day/close", { date });
  process.stdout.write(JSON.stringify(r) + "\n");
  process.stderr.write(`closed ${r.game_id} at revision ${r.revision}; archive ${new URL(r.archive.url, args.url)} (${r.archive.bytes} bytes gzip)\n`);
} else {
  process.stderr.write(USAGE + "\n");
  process.exit(args.command === undefined ? 1 : 2);
}
