#!/usr/bin/env bash
# The main job in a few commands: a throw-away MariaDB and its pre-flight, a small TPC-C
# database, a short concurrency sweep with a consistency check after each level, a report
# with charts, the quick null-dates experiment and its report, a clean stop.
set -euo pipefail
cd "$(dirname "$0")/.."
txbench=./target/release/txbench
export TXBENCH_HOME="${TXBENCH_HOME:-$PWD/.txbench}"

echo "== starting a throw-away MariaDB (state in $TXBENCH_HOME)"
url=$($txbench server start demo --set innodb_buffer_pool_size=1G --quiet)
trap '$txbench server stop demo --rm' EXIT
$txbench --url "$url" info

echo "== prepare tpcc, 2 warehouses"
$txbench --url "$url" prepare tpcc --warehouses 2

out="runs/demo-$(date -u +%Y%m%dT%H%M%SZ)"
echo "== sweep tpcc over 1, 2, 4 and 8 threads: 15 s each after 3 s warm-up, consistency check after each"
$txbench --url "$url" run tpcc --threads 1..8x2 --warmup 3 --time 15 --report-interval 1 --check --quiet --out "$out"
echo
echo "== report"
report=$($txbench report "$out" --quiet)

xout="experiments/demo-null-dates-$(date -u +%Y%m%dT%H%M%SZ)"
echo
echo "== experiment: the quick null-dates plan (seed 000): TPC-C with --null-dates null against default,"
echo "   both servers kept running and warm, short cells interleaved in randomized blocks, repeated"
$txbench experiment run null-dates --scale quick --out "$xout"
xreport=$($txbench report "$xout" --quiet)
echo
echo "results:    $PWD/$out (sweep.json, one run directory per level)"
echo "report:     $PWD/$report"
echo "experiment: $PWD/$xout (experiment.json, one run directory per cell)"
echo "report:     $PWD/$xreport"
