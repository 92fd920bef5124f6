#!/usr/bin/env bash
# The main job in a few commands: a throw-away MariaDB, its pre-flight, a small sysbench-style
# data set, a short measured run with results on disk, and a clean stop.
set -euo pipefail
cd "$(dirname "$0")/.."
txbench=./target/release/txbench
export TXBENCH_HOME="${TXBENCH_HOME:-$PWD/.txbench}"

echo "== starting a throw-away MariaDB (state in $TXBENCH_HOME)"
url=$($txbench server start --name demo --set innodb_buffer_pool_size=1G --quiet)
trap '$txbench server stop demo --rm' EXIT
$txbench --url "$url" info

opts=(--tables 4 --table-size 50000)
echo "== prepare oltp_read_write ${opts[*]}"
$txbench --url "$url" prepare oltp_read_write "${opts[@]}"

out="runs/demo-$(date -u +%Y%m%dT%H%M%SZ)"
echo "== run oltp_read_write, 4 threads, 15 s after 3 s warm-up"
$txbench --url "$url" run oltp_read_write "${opts[@]}" --threads 4 --warmup 3 --time 15 \
  --report-interval 3 --out "$out"
echo
echo "== results written to $PWD/$out (result.json, intervals.csv, latency.hlog)"
