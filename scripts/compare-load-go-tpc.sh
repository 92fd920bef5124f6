#!/usr/bin/env bash
# txbench's TPC-C load against go-tpc's, side by side: one throw-away MariaDB sandbox, each
# tool into a fresh database (dropped after each load), interleaved txbench, go-tpc at every
# warehouse count, ROUNDS rounds; rows counted from the tables afterwards. Prints CSV.
#   scripts/compare-load-go-tpc.sh [WAREHOUSES...]     (default: 10 50)
# Environment: TXBENCH (default target/release/txbench), GO_TPC (default: go-tpc v1.0.7,
# installed with `go install` when missing), ROUNDS (3), LOADERS (4), BUFFER_POOL (4G).
set -euo pipefail
cd "$(dirname "$0")/.."
T=${TXBENCH:-target/release/txbench}
ROUNDS=${ROUNDS:-3}
LOADERS=${LOADERS:-4}
[ $# -gt 0 ] || set -- 10 50
WAREHOUSES=("$@")
if [ -z "${GO_TPC:-}" ]; then
  GO_TPC=$(go env GOPATH)/bin/go-tpc
  [ -x "$GO_TPC" ] || go install github.com/pingcap/go-tpc/cmd/go-tpc@v1.0.7
fi
OWN_HOME=
if [ -z "${TXBENCH_HOME:-}" ]; then
  OWN_HOME=$(mktemp -d /tmp/txbench-loadcmp.XXXXXX)
  export TXBENCH_HOME=$OWN_HOME
fi
URL=$("$T" --json server start loadcmp --set "innodb_buffer_pool_size=${BUFFER_POOL:-4G}" | jq -r .url)
trap '"$T" server stop loadcmp --rm >/dev/null 2>&1 || true; [ -z "$OWN_HOME" ] || rm -rf "$OWN_HOME"' EXIT
PORT=$(echo "$URL" | sed -E 's|.*:([0-9]+)/.*|\1|')
SOCK=$("$T" --json server status loadcmp | jq -r .socket)
sql() { mariadb -S "$SOCK" -uroot -N -e "$1"; }
# The sandbox's user (its password is in $TXBENCH_HOME/secret; go-tpc takes it on its
# command line) may use the comparison's database.
sql "GRANT ALL ON lc_db.* TO txbench@'127.0.0.1'"
rows() {
  local q="SELECT 0" t
  for t in warehouse district customer history orders new_order order_line stock item; do
    q="$q + (SELECT COUNT(*) FROM lc_db.$t)"
  done
  sql "$q"
}
echo "round,tool,warehouses,seconds,rows,rows_per_s"
for r in $(seq "$ROUNDS"); do
  for w in "${WAREHOUSES[@]}"; do
    for tool in txbench go-tpc; do
      sql "DROP DATABASE IF EXISTS lc_db; CREATE DATABASE lc_db"
      sync
      s=$(date +%s.%N)
      if [ $tool = txbench ]; then
        "$T" --url "mysql://txbench@127.0.0.1:$PORT/lc_db" prepare tpcc --warehouses "$w" \
          --load-threads "$LOADERS" -q > /dev/null
      else
        "$GO_TPC" tpcc prepare -H 127.0.0.1 -P "$PORT" -U txbench -p "$(cat "$TXBENCH_HOME/secret")" \
          -D lc_db --warehouses "$w" -T "$LOADERS" --no-check > /dev/null
      fi
      e=$(date +%s.%N)
      n=$(rows)
      echo "$r,$tool,$w,$(echo "$e - $s" | bc),$n,$(echo "$n / ($e - $s)" | bc)"
    done
  done
done
