#!/usr/bin/env bash
# Many terminals from one client, txbench against go-tpc, side by side: one throw-away
# MariaDB sandbox with the thread pool (10,000 connections need it), TPC-C loaded by each
# tool into its own database, then at every count of virtual users a closed-loop run of
# each tool, interleaved txbench, go-tpc, ROUNDS rounds; then SPEC_USERS terminals with the
# specification's keying and think times (txbench --think-time spec, go-tpc --wait).
# Measured from outside with /usr/bin/time: client CPU (user + system) per 1,000
# New-Orders, peak RSS, and the wall time beyond the measured time (connecting, starting,
# stopping, and everything else the process does). Prints CSV.
#   scripts/compare-terminals-go-tpc.sh [USERS...]      (default: 8 128 512 1024 2000)
# Environment: TXBENCH (default target/release/txbench), GO_TPC (default: go-tpc v1.0.7,
# installed with `go install` when missing), WAREHOUSES (10), RUN_SECONDS (40), ROUNDS (1),
# SPEC_USERS (10000; 0 skips), SPEC_SECONDS (120), BUFFER_POOL (3G).
set -euo pipefail
cd "$(dirname "$0")/.."
T=$(realpath "${TXBENCH:-target/release/txbench}")
W=${WAREHOUSES:-10}
SECS=${RUN_SECONDS:-40}
ROUNDS=${ROUNDS:-1}
SPEC_USERS=${SPEC_USERS:-10000}
SPEC_SECS=${SPEC_SECONDS:-120}
[ $# -gt 0 ] || set -- 8 128 512 1024 2000
USERS=("$@")
if [ -z "${GO_TPC:-}" ]; then
  GO_TPC=$(go env GOPATH)/bin/go-tpc
  [ -x "$GO_TPC" ] || go install github.com/pingcap/go-tpc/cmd/go-tpc@v1.0.7
fi
OWN_HOME=
if [ -z "${TXBENCH_HOME:-}" ]; then
  OWN_HOME=$(mktemp -d /tmp/txbench-terminals.XXXXXX)
  export TXBENCH_HOME=$OWN_HOME
fi
MAX_CONN=$(( ${SPEC_USERS} > 2000 ? ${SPEC_USERS} + 100 : 2100 ))
URL=$("$T" --json server start terminals --set thread_handling=pool-of-threads \
  --set "max_connections=$MAX_CONN" --set "innodb_buffer_pool_size=${BUFFER_POOL:-3G}" | jq -r .url)
trap '"$T" server stop terminals --rm >/dev/null 2>&1 || true; [ -z "$OWN_HOME" ] || rm -rf "$OWN_HOME"' EXIT
PORT=$(echo "$URL" | sed -E 's|.*:([0-9]+)/.*|\1|')
SOCK=$("$T" --json server status terminals | jq -r .socket)
sql() { mariadb -S "$SOCK" -uroot -N -e "$1"; }
# The sandbox's user (its password is in $TXBENCH_HOME/secret; go-tpc takes it on its
# command line) may use go-tpc's database.
sql "CREATE DATABASE IF NOT EXISTS gt_db; GRANT ALL ON gt_db.* TO txbench@'127.0.0.1'"
"$T" --url "$URL" prepare tpcc --warehouses "$W" -q > /dev/null
"$GO_TPC" tpcc prepare -H 127.0.0.1 -P "$PORT" -U txbench -p "$(cat "$TXBENCH_HOME/secret")" \
  -D gt_db --warehouses "$W" -T 4 --no-check > /dev/null
TIMING=$(mktemp)
# One run under /usr/bin/time: prints "NOPM,cpu_s,rss_kib,wall_s,status".
measure() { # tool users seconds [think]
  local tool=$1 n=$2 s=$3 think=${4:-} out nopm status
  if [ "$tool" = txbench ]; then
    out=$(/usr/bin/time -o "$TIMING" -f "%U %S %M %e" "$T" --url "$URL" --json run tpcc \
      --threads "$n" --time "$s" ${think:+--think-time spec} 2>/dev/null || true)
    nopm=$(echo "$out" | grep '"type":"summary"' | jq -r '.workload_report.rate.per_minute // 0')
    status=$(echo "$out" | grep '"type":"summary"' | jq -r 'if .validity.valid then "VALID" else "INVALID" end')
  else
    out=$(/usr/bin/time -o "$TIMING" -f "%U %S %M %e" "$GO_TPC" tpcc run -H 127.0.0.1 -P "$PORT" \
      -U txbench -p "$(cat "$TXBENCH_HOME/secret")" -D gt_db --warehouses "$W" -T "$n" \
      --time "${s}s" --interval 1000s ${think:+--wait} 2>&1 || true)
    nopm=$(echo "$out" | sed -nE 's/^tpmC: ([0-9.]+).*/\1/p' | tail -1)
    status=go-tpc
  fi
  # time(1) writes "Command exited with non-zero status 3" first for an INVALID run.
  read -r u sy rss wall < <(tail -1 "$TIMING")
  echo "${nopm:-0},$(echo "$u + $sy" | bc),$rss,$wall,$status"
}
row() { # round tool users seconds [think]
  local r
  r=$(measure "$2" "$3" "$4" "${5:-}")
  IFS=, read -r nopm cpu rss wall status <<< "$r"
  local per=nan
  if [ "$(echo "$nopm > 0" | bc)" = 1 ]; then
    per=$(echo "scale=3; $cpu * 1000 / ($nopm * $4 / 60)" | bc)
  fi
  echo "$1,$2,$3,${5:+spec},$4,$nopm,$cpu,$per,$rss,$(echo "$wall - $4" | bc),$status"
}
echo "round,tool,users,think,seconds,nopm,client_cpu_s,cpu_s_per_1000_new_orders,peak_rss_kib,wall_beyond_measured_s,status"
for r in $(seq "$ROUNDS"); do
  for n in "${USERS[@]}"; do
    for tool in txbench go-tpc; do
      row "$r" "$tool" "$n" "$SECS"
    done
  done
done
if [ "$SPEC_USERS" -gt 0 ]; then
  for tool in txbench go-tpc; do
    row 1 "$tool" "$SPEC_USERS" "$SPEC_SECS" spec
  done
fi
rm -f "$TIMING"
