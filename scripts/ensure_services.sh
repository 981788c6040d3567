#!/usr/bin/env bash
# Before `make test`: bring up what the suite needs when it is missing and this machine can provide it
# from its own packages: a PostgreSQL cluster, Redis, Debian's Chromium (browser tests) and gettext
# (the Spanish catalog). Says in one line what it started or installed; when something cannot be
# provided (remote address down, no apt-get, no root), stops with one line naming what to do.
#
# Addresses come from TEST_DATABASE_URL (or DATABASE_URL), REDIS_URL and CELERY_BROKER_URL, with the
# test settings' defaults. Only local addresses (localhost, 127.x, ::1, a socket) are started here.
set -euo pipefail
cd "$(dirname "$0")/.."

mkdir -p var/log
LOG="$PWD/var/log/ensure_services.log"
: >"$LOG"

say() { echo "make test: $*"; }
die() {
  echo "make test: $*" >&2
  exit 1
}

is_root_or_sudo() {
  [ "$(id -u)" -eq 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

apt_updated=""
apt_install() {
  command -v apt-get >/dev/null 2>&1 ||
    die "missing $*: install them with this machine's package manager (there is no apt-get), then run make test again"
  is_root_or_sudo || die "missing $*: run \`apt-get install $*\` as root, then run make test again"
  if [ -z "$apt_updated" ]; then
    as_root apt-get update -qq >>"$LOG" 2>&1 || die "apt-get update failed (output in $LOG)"
    apt_updated=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >>"$LOG" 2>&1 ||
    die "apt-get install $* failed (output in $LOG)"
}

# "scheme host port" of a URL; host "-" when the URL names none (a local socket).
url_parts() {
  python3 -c 'import sys
from urllib.parse import urlsplit
u = urlsplit(sys.argv[1])
print(u.scheme or "-", u.hostname or "-", u.port or sys.argv[2])' "$1" "$2"
}

is_local() {
  case "$1" in
    - | localhost | 127.* | ::1) return 0 ;;
    *) return 1 ;;
  esac
}

tcp_open() {
  local host=$1
  [ "$host" = - ] && host=127.0.0.1
  timeout 3 bash -c "exec 3<>/dev/tcp/$host/$2" 2>/dev/null
}

wait_until() {
  for _ in $(seq 1 30); do
    "$@" && return 0
    sleep 1
  done
  return 1
}

# PostgreSQL -----------------------------------------------------------------------------------------
pg_ready() {
  local host=$1 port=$2
  if command -v pg_isready >/dev/null 2>&1; then
    if [ "$host" = - ]; then pg_isready -q -p "$port"; else pg_isready -q -h "$host" -p "$port"; fi
  else
    tcp_open "$host" "$port"
  fi
}

ensure_postgres() {
  local host=$1 port=$2 done_what="" cluster version name
  pg_ready "$host" "$port" && return 0
  is_local "$host" ||
    die "PostgreSQL at $host:$port is unreachable: start it there, or point TEST_DATABASE_URL at a local address"
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    # Debian's package would create a cluster with password authentication; ours is created below.
    apt_install postgresql-common
    as_root sed -ri 's/^#? *create_main_cluster *=.*/create_main_cluster = false/' \
      /etc/postgresql-common/createcluster.conf
    apt_install postgresql
    done_what="installed postgresql, "
  fi
  cluster=$(pg_lsclusters -h 2>/dev/null | awk -v p="$port" '$3 == p {print $1 "/" $2; exit}')
  if [ -z "$cluster" ]; then
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    name=main
    [ -d "/etc/postgresql/$version/main" ] && name="port$port"
    # Trust on loopback, as the test settings connect as postgres without a password.
    as_root pg_createcluster -p "$port" "$version" "$name" -- --auth=trust >>"$LOG" 2>&1 ||
      die "could not create a PostgreSQL cluster on port $port (output in $LOG); run pg_createcluster as root"
    cluster="$version/$name"
    done_what="${done_what}created and "
  fi
  as_root pg_ctlcluster --skip-systemctl-redirect "${cluster%%/*}" "${cluster#*/}" start >>"$LOG" 2>&1 ||
    die "PostgreSQL cluster $cluster did not start (output in $LOG): as root run pg_ctlcluster --skip-systemctl-redirect ${cluster%%/*} ${cluster#*/} start"
  wait_until pg_ready "$host" "$port" || die "PostgreSQL cluster $cluster started but does not answer on port $port"
  say "${done_what}started PostgreSQL cluster $cluster on port $port"
}

# Redis ----------------------------------------------------------------------------------------------
redis_ready() {
  local host=$1 port=$2
  [ "$host" = - ] && host=127.0.0.1
  if command -v redis-cli >/dev/null 2>&1; then
    [ "$(redis-cli -h "$host" -p "$port" ping 2>/dev/null)" = PONG ]
  else
    tcp_open "$host" "$port"
  fi
}

ensure_redis() {
  local host=$1 port=$2 done_what="" dir=/var/lib/redis logdir=/var/log/redis logfile
  redis_ready "$host" "$port" && return 0
  is_local "$host" ||
    die "Redis at $host:$port is unreachable: start it there, or point REDIS_URL and CELERY_BROKER_URL at a local address"
  if ! command -v redis-server >/dev/null 2>&1; then
    apt_install redis-server
    done_what="installed redis-server, "
  fi
  if ! mkdir -p "$dir" "$logdir" 2>/dev/null || [ ! -w "$dir" ] || [ ! -w "$logdir" ]; then
    dir="$PWD/var/redis" logdir="$PWD/var/log"
    mkdir -p "$dir" "$logdir"
  fi
  logfile="$logdir/ci.log"
  [ "$port" = 6379 ] || logfile="$logdir/ci-$port.log"
  # A throwaway instance for tests: nothing is saved to disk.
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$port" --save "" --appendonly no \
    --dir "$dir" --logfile "$logfile" >>"$LOG" 2>&1 ||
    die "redis-server did not start on port $port (output in $LOG)"
  wait_until redis_ready "$host" "$port" || die "Redis started but does not answer on port $port (log $logfile)"
  say "${done_what}started Redis on 127.0.0.1:$port (log $logfile)"
}

# Packages -------------------------------------------------------------------------------------------
ensure_packages() {
  local need=()
  if [ -z "${CHROMIUM_PATH:-}" ] || [ ! -x "${CHROMIUM_PATH:-}" ]; then
    command -v chromium >/dev/null 2>&1 || need+=(chromium)
    command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
  fi
  command -v msgfmt >/dev/null 2>&1 || need+=(gettext)
  if [ ${#need[@]} -gt 0 ]; then
    apt_install "${need[@]}"
    say "installed ${need[*]} with apt-get"
  fi
}

command -v python3 >/dev/null 2>&1 || die "python3 is missing: install Python 3.11 or newer"
read -r scheme host port <<<"$(url_parts "${TEST_DATABASE_URL:-${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/llmbench}}" 5432)"
case "$scheme" in
  postgres | postgresql | pgsql) ensure_postgres "$host" "$port" ;;
esac

seen=""
for url in "${REDIS_URL:-redis://127.0.0.1:6379/15}" "${CELERY_BROKER_URL:-redis://127.0.0.1:6379/14}"; do
  read -r scheme host port <<<"$(url_parts "$url" 6379)"
  case " $seen " in *" $host:$port "*) continue ;; esac
  seen="$seen $host:$port"
  ensure_redis "$host" "$port"
done

ensure_packages
