#!/usr/bin/env bash
# Installs what txbench needs on a Debian machine, and only what is missing.
# Usage: scripts/install-deps.sh [sysbench] [chromium]   (extras: sysbench for benchmarks and the
# lua workload's tests, which run its scripts from /usr/share/sysbench; chromium for browser tests)
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ]; }

packages=()
have mariadbd || packages+=(mariadb-server)
have mariadb || packages+=(mariadb-client)
have pkg-config || packages+=(pkg-config)
have cc || packages+=(gcc libc6-dev)
# Galera clusters (server start --galera N): the provider library, and mariabackup with socat
# for state transfer (rsync's daemon runs as nobody under root and cannot write a data directory).
[ -f /usr/lib/galera/libgalera_smm.so ] || packages+=(galera-4)
have mariabackup || packages+=(mariadb-backup)
have socat || packages+=(socat)
# PostgreSQL sandboxes (server start --engine postgres): Debian's server lives in
# /usr/lib/postgresql/VERSION/bin, off PATH; pgbench and psql come with the client package.
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || packages+=(postgresql)
have pgbench || packages+=(postgresql-client)
# The test certificates of PostgreSQL's TLS (sslmode) are made with openssl.
have openssl || packages+=(openssl)
# Where the CPU went (run --profile): perf, sampling the server's stacks.
have perf || packages+=(linux-perf)
# The text of charts rendered to PNG (report --png).
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || packages+=(fonts-dejavu-core)
for extra in "$@"; do
  case "$extra" in
    sysbench) have sysbench || packages+=(sysbench) ;;
    chromium) have chromium || packages+=(chromium) ;;
    *) echo "install-deps: unknown extra '$extra'" >&2; exit 1 ;;
  esac
done

if [ ${#packages[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "txbench needs the Debian packages: ${packages[*]} (run as root, or: sudo apt-get install ${packages[*]})" >&2
    exit 1
  fi
  echo "install-deps: apt-get install ${packages[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

# Rust: edition 2024 needs 1.85 or newer. Debian 12's own rustc is 1.63, so the toolchain
# comes from rustup; use it from ~/.cargo/bin when it is not on PATH.
export PATH="$HOME/.cargo/bin:$PATH"
if ! command -v cargo >/dev/null 2>&1; then
  echo "txbench needs Rust 1.85 or newer and cargo is not installed: install it with rustup (https://rustup.rs)" >&2
  exit 1
fi
version=$(rustc --version | awk '{print $2}')
major=${version%%.*}; rest=${version#*.}; minor=${rest%%.*}
if [ "$major" -lt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -lt 85 ]; }; then
  echo "txbench needs Rust 1.85 or newer, found $version: run 'rustup update stable'" >&2
  exit 1
fi
