#!/usr/bin/env bash
# The main job in a few commands: a throw-away MariaDB, its pre-flight, and a clean stop.
set -euo pipefail
cd "$(dirname "$0")/.."
txbench=./target/release/txbench
export TXBENCH_HOME="${TXBENCH_HOME:-$PWD/.txbench}"

echo "== starting a throw-away MariaDB (state in $TXBENCH_HOME)"
$txbench server start --name demo --set innodb_buffer_pool_size=1G
trap '$txbench server stop demo' EXIT
echo "== servers"
$txbench server list
