#!/usr/bin/env bash
# The main job in a few commands: a throw-away MariaDB and its pre-flight, a small TPC-C
# database, a short measured run with a consistency check, results on disk, a clean stop.
set -euo pipefail
cd "$(dirname "$0")/.."
txbench=./target/release/txbench
export TXBENCH_HOME="${TXBENCH_HOME:-$PWD/.txbench}"

echo "== starting a throw-away MariaDB (state in $TXBENCH_HOME)"
url=$($txbench server start --name demo --set innodb_buffer_pool_size=1G --quiet)
trap '$txbench server stop demo --rm' EXIT
$txbench --url "$url" info

echo "== prepare tpcc, 2 warehouses"
$txbench --url "$url" prepare tpcc --warehouses 2

out="runs/demo-$(date -u +%Y%m%dT%H%M%SZ)"
echo "== run tpcc, 4 threads, 20 s after 5 s warm-up, consistency check after"
$txbench --url "$url" run tpcc --threads 4 --warmup 5 --time 20 --report-interval 5 --check --out "$out"
echo
echo "== results written to $PWD/$out (result.json, intervals.csv, latency.hlog)"
