#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432, user postgres, trust auth) and Redis
# (127.0.0.1:6379) answer, starting them when they are installed but stopped.
# When the system cluster does not allow trust logins on 127.0.0.1, a private
# throwaway cluster is started instead and its URL printed for the tests as
#   PLANGRAPH_TEST_POSTGRES=postgres://…
set -euo pipefail
sudo_() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
pg_url="postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

pg_ok() { psql "$1" -Atqc 'select 1' >/dev/null 2>&1; }
redis_ok() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

if ! redis_ok; then
  echo "starting redis-server on 127.0.0.1:6379" >&2
  sudo_ mkdir -p /var/lib/redis /var/log/redis
  sudo_ redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/plangraph-test.log
  for _ in $(seq 50); do redis_ok && break; sleep 0.2; done
  redis_ok || { echo "redis did not start" >&2; exit 1; }
fi

if ! pg_ok "$pg_url"; then
  if command -v pg_lsclusters >/dev/null && [ -n "$(pg_lsclusters -h 2>/dev/null)" ]; then
    read -r ver name _ < <(pg_lsclusters -h | head -1)
    echo "starting PostgreSQL cluster $ver/$name" >&2
    sudo_ pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start 2>/dev/null || sudo_ pg_ctlcluster "$ver" "$name" start || true
    for _ in $(seq 50); do pg_ok "$pg_url" && break; sleep 0.2; done
  fi
fi
if ! pg_ok "$pg_url"; then
  # the system cluster is missing or wants passwords: run a private one with trust auth
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$bin" ] || { echo "PostgreSQL is not installed (run scripts/deps.sh test)" >&2; exit 1; }
  dir=${PLANGRAPH_TEST_PGDATA:-/tmp/plangraph-test-pg}
  port=55432
  pg_url="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
  if ! pg_ok "$pg_url"; then
    run_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
    if [ ! -f "$dir/PG_VERSION" ]; then
      mkdir -p "$dir"; [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
      run_pg "$bin/initdb" -D "$dir" -U postgres -A trust >/dev/null
    fi
    echo "starting a private PostgreSQL on 127.0.0.1:$port" >&2
    run_pg "$bin/pg_ctl" -D "$dir" -l "$dir/log" -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off" -w start >/dev/null
  fi
  pg_ok "$pg_url" || { echo "PostgreSQL did not start" >&2; exit 1; }
fi
echo "PLANGRAPH_TEST_POSTGRES=$pg_url"
