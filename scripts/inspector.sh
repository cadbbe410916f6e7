#!/usr/bin/env bash
# Drives /mcp with the MCP Inspector CLI in both protocol eras and checks the answers.
#
#   scripts/inspector.sh                      # starts `wrangler dev` on a free port
#   scripts/inspector.sh https://mosaic.example/mcp
#   AUTH="Bearer msc_…" scripts/inspector.sh http://127.0.0.1:8787/mcp
#
# The Inspector 2.x needs Node 22: the project's `node` devDependency is put first on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
INSPECTOR="@modelcontextprotocol/inspector@2.12.0"

url="${1:-}"
dev_pid=""
state_dir=""
cleanup() {
  if [ -n "$dev_pid" ]; then kill -TERM -- "-$dev_pid" 2>/dev/null || true; sleep 1; kill -KILL -- "-$dev_pid" 2>/dev/null || true; fi
  if [ -n "$state_dir" ]; then rm -rf "$state_dir"; fi
}
trap cleanup EXIT

if [ -z "$url" ]; then
  port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  state_dir="$(mktemp -d)"
  setsid node node_modules/wrangler/bin/wrangler.js dev --local --ip 127.0.0.1 --port "$port" --persist-to "$state_dir" \
    --show-interactive-dev-session=false >"$state_dir/wrangler.log" 2>&1 &
  dev_pid=$!
  for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null 2>&1; then break; fi
    sleep 0.5
  done
  curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null || { cat "$state_dir/wrangler.log"; exit 1; }
  url="http://127.0.0.1:$port/mcp"
fi

header_args=()
if [ -n "${AUTH:-}" ]; then header_args=(--header "Authorization: $AUTH"); fi

failures=0
check() { # era, expected substring, inspector args...
  local era="$1" expect="$2"; shift 2
  local out
  if out="$(npx -y "$INSPECTOR" --cli "$url" --protocol-era "$era" --format json -q "${header_args[@]}" "$@" 2>&1)" && grep -q -- "$expect" <<<"$out"; then
    echo "PASS  $era  $*"
  else
    echo "FAIL  $era  $*"
    echo "$out" | head -c 800; echo
    failures=$((failures + 1))
  fi
}

echo "MCP Inspector CLI ($INSPECTOR) against $url"
for era in legacy modern; do
  check "$era" '"name":"list_games"' --method tools/list
  check "$era" 'MOSAIC RULES' --method resources/read --uri mosaic://rules
  check "$era" '"games":\[' --method tools/call --tool-name list_games
done
# Schema portability (--strict): reported, not failed on, since it judges the tools' schemas
# (clients with older JSON Schema support) rather than the transport.
for era in legacy modern; do
  if npx -y "$INSPECTOR" --cli "$url" --protocol-era "$era" --method tools/list --strict "${header_args[@]}" >/dev/null 2>"${TMPDIR:-/tmp}/inspector-strict.$$"; then
    echo "NOTE  $era  tools/list --strict: portable"
  else
    echo "NOTE  $era  tools/list --strict: $(grep -c '^Error: tool' "${TMPDIR:-/tmp}/inspector-strict.$$") portability error(s)"
    grep -A2 '^Error: tool' "${TMPDIR:-/tmp}/inspector-strict.$$" | sed 's/^/      /'
  fi
  rm -f "${TMPDIR:-/tmp}/inspector-strict.$$"
done
echo "inspector: $failures failure(s)"
exit "$failures"
