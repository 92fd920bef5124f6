#!/usr/bin/env bash
# The statements per event of sysbench's own oltp_*.lua scripts, sysbench 1.0 against
# `txbench run lua` on the same files, side by side: one throw-away MariaDB sandbox; each
# script's table prepared by sysbench; then EVENTS events of each tool at 4 threads, with
# the server's Com_* counters read as root through the socket before and after each run.
# txbench runs with --no-server-metrics, so that its monitor adds no SELECT of its own
# (it reads only Uptime, a Com_show_status). Prints CSV: script, tool, Com_* per event.
#   scripts/compare-statements-sysbench.sh [SCRIPT...]   (default: every oltp_*.lua)
# Environment: TXBENCH (default target/release/txbench), EVENTS (4000), TABLE_SIZE (10000).
set -euo pipefail
cd "$(dirname "$0")/.."
T=$(realpath "${TXBENCH:-target/release/txbench}")
EVENTS=${EVENTS:-4000}
SIZE=${TABLE_SIZE:-10000}
DIR=/usr/share/sysbench
command -v sysbench > /dev/null || { echo "sysbench is not installed (apt-get install sysbench)" >&2; exit 2; }
[ $# -gt 0 ] || set -- $(cd "$DIR" && ls oltp_*.lua | grep -v oltp_common)
OWN_HOME=
if [ -z "${TXBENCH_HOME:-}" ]; then
  OWN_HOME=$(mktemp -d /tmp/txbench-statements.XXXXXX)
  export TXBENCH_HOME=$OWN_HOME
fi
URL=$("$T" --json server start statements | jq -r .url)
trap '"$T" server stop statements --rm >/dev/null 2>&1 || true; rm -f "${CFG:-}"; [ -z "$OWN_HOME" ] || rm -rf "$OWN_HOME"' EXIT
PORT=$(echo "$URL" | sed -E 's|.*:([0-9]+)/.*|\1|')
SOCK=$("$T" --json server status statements | jq -r .socket)
# The sandbox's user; its password goes to sysbench in a file only we read (never on a
# command line, which every local user can read).
CFG=$(mktemp)
chmod 600 "$CFG"
echo "mysql-password=$(cat "$TXBENCH_HOME/secret")" > "$CFG"
SB=("--config-file=$CFG" --db-driver=mysql --mysql-host=127.0.0.1 "--mysql-port=$PORT"
  --mysql-user=txbench --mysql-db=txbench --tables=1 "--table-size=$SIZE")
COUNTERS=(Com_select Com_insert Com_update Com_delete Com_begin Com_commit Com_rollback
  Com_stmt_prepare Com_stmt_execute Com_stmt_close)
LIST=$(printf "'%s'," "${COUNTERS[@]}")
counts() {
  mariadb -S "$SOCK" -uroot -N -e "SHOW GLOBAL STATUS WHERE Variable_name IN (${LIST%,})" |
    sort | awk '{print $2}' | paste -sd' '
}
echo "script,tool,$(printf '%s\n' "${COUNTERS[@]}" | sort | paste -sd,)"
for s in "$@"; do
  sysbench "${SB[@]}" "$DIR/$s" cleanup > /dev/null 2>&1 || true
  sysbench "${SB[@]}" "$DIR/$s" prepare > /dev/null
  for tool in sysbench txbench; do
    before=$(counts)
    if [ "$tool" = sysbench ]; then
      sysbench "${SB[@]}" --threads=4 "--events=$EVENTS" --time=0 "$DIR/$s" run > /dev/null
    else
      "$T" --url "$URL" run lua "$DIR/$s" --tables 1 --table-size "$SIZE" --threads 4 \
        --events "$EVENTS" --time 600 --no-server-metrics -q > /dev/null
    fi
    after=$(counts)
    python3 -c '
import sys
b, a, n = sys.argv[1].split(), sys.argv[2].split(), int(sys.argv[3])
print(",".join("%.3f" % ((int(y) - int(x)) / n) for x, y in zip(b, a)))
' "$before" "$after" "$EVENTS" | sed "s/^/$s,$tool,/"
  done
  sysbench "${SB[@]}" "$DIR/$s" cleanup > /dev/null
done
