#!/usr/bin/env bash
# Runs a command with a throwaway Redis for the test suite:
#   bash scripts/redis-for-tests.sh npm test
# Installs Debian's redis-server when it is missing (apt-get, as root or through sudo), starts it
# on 127.0.0.1 on a free port with no persistence, exports MEDIAGW_TEST_REDIS_URL and
# MEDIAGW_TEST_REDIS_REQUIRED=1 (the Redis tests then fail rather than skip when Redis is
# unusable), runs the command, stops the server and exits with the command's status.
set -uo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi

export MEDIAGW_TEST_REDIS_REQUIRED=1
unset MEDIAGW_TEST_REDIS_URL

install_redis() {
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "redis-for-tests: redis-server is missing and installing it needs root" >&2
      return 1
    fi
    sudo=(sudo -n)
  fi
  echo "redis-for-tests: installing redis-server with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq &&
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends redis-server >/dev/null
}

free_port() {
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# Resolves when the server on port $1 answers PING, within about 5 seconds.
wait_ready() {
  local i
  for i in $(seq 1 50); do
    if node -e '
      const s = require("net").connect({ host: "127.0.0.1", port: Number(process.argv[1]) });
      s.setTimeout(300, () => process.exit(1));
      s.on("error", () => process.exit(1));
      s.on("connect", () => s.write("PING\r\n"));
      s.on("data", (d) => process.exit(String(d).startsWith("+PONG") ? 0 : 1));
    ' "$1" 2>/dev/null; then
      return 0
    fi
    if ! kill -0 "$redis_pid" 2>/dev/null; then return 1; fi
    sleep 0.1
  done
  return 1
}

redis_pid=""
redis_dir="$(mktemp -d)"
stop_redis() {
  if [ -n "$redis_pid" ] && kill -0 "$redis_pid" 2>/dev/null; then
    kill "$redis_pid" 2>/dev/null
    wait "$redis_pid" 2>/dev/null
  fi
  rm -rf "$redis_dir"
}
trap stop_redis EXIT
trap 'exit 130' INT TERM

if ! command -v redis-server >/dev/null 2>&1; then
  install_redis || echo "redis-for-tests: could not install redis-server; the Redis tests will fail" >&2
fi

if command -v redis-server >/dev/null 2>&1; then
  # A free port can be taken between the probe and the bind: try a few.
  for attempt in 1 2 3; do
    port="$(free_port)"
    # Loopback only, no RDB snapshots, no append-only file.
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$redis_dir" \
      --logfile "$redis_dir/redis.log" --daemonize no &
    redis_pid=$!
    if wait_ready "$port"; then
      export MEDIAGW_TEST_REDIS_URL="redis://127.0.0.1:$port"
      echo "redis-for-tests: Redis at $MEDIAGW_TEST_REDIS_URL" >&2
      break
    fi
    kill "$redis_pid" 2>/dev/null
    wait "$redis_pid" 2>/dev/null
    redis_pid=""
  done
  if [ -z "${MEDIAGW_TEST_REDIS_URL:-}" ]; then
    echo "redis-for-tests: redis-server did not start; the Redis tests will fail" >&2
    cat "$redis_dir/redis.log" >&2 2>/dev/null
  fi
fi

"$@"
status=$?
exit "$status"
