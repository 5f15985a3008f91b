#!/usr/bin/env bash
# `npm run mysql84 -- up|down|status`: a second local database server with MySQL 8.4's defaults
# where they differ from MariaDB's in ways that break careless code: ids handed out in steps of 2
# starting at 2 (auto_increment_increment=2, auto_increment_offset=2, as a Galera node or a
# replicated primary does), interleaved auto-increment locking (innodb_autoinc_lock_mode=2, 8.4's
# default: a multi-row INSERT's ids need not be consecutive) and 8.4's default sql_mode
# (ONLY_FULL_GROUP_BY and strict mode). No MySQL server can be installed here, so it is Debian's
# mariadbd with those settings.
#
# The server is its own: data directory, option file, socket and pid file under MYSQL84_DIR
# (default /var/tmp/service-mysql84), port MYSQL84_PORT (default 3307) on 127.0.0.1, root without
# password. It never reads the shared server's /etc/mysql (--defaults-file), and it is stopped by
# its own pid file only. `up` is idempotent and recovers from a kill -9 (stale pid file and socket;
# InnoDB recovers its own log). `down --wipe` also deletes the data directory.
#
#   npm run mysql84 -- up
#   DATABASE_URL=mysql://root@127.0.0.1:3307 npx vitest run core-api/src/businesses
set -euo pipefail

BASE="${MYSQL84_DIR:-/var/tmp/service-mysql84}"
PORT="${MYSQL84_PORT:-3307}"
DATA="$BASE/data"
CNF="$BASE/my.cnf"
SOCKET="$BASE/mysqld.sock"
PIDFILE="$BASE/mysqld.pid"
LOG="$BASE/error.log"
MARIADBD=/usr/sbin/mariadbd
SQL_MODE="ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

usage() {
  cat <<EOF
Usage: npm run mysql84 -- up|down|status [--wipe]

  up      start the MySQL 8.4-like server on 127.0.0.1:$PORT (initialises $DATA when empty);
          does nothing when it runs already
  down    stop it (by its pid file $PIDFILE only); --wipe also deletes $BASE
  status  say whether it runs, and its id and sql_mode settings
  -h, --help  print this text and exit; nothing is started or stopped

Environment: MYSQL84_DIR (default /var/tmp/service-mysql84), MYSQL84_PORT (default 3307).
Then: DATABASE_URL=mysql://root@127.0.0.1:$PORT npx vitest run <files>
EOF
}

# The pid in our pid file when that process is alive and is a mariadbd reading our option file
# (a pid reused by another process after a kill -9 does not count).
running_pid() {
  [[ -s "$PIDFILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PIDFILE")"
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "--defaults-file=$CNF" || return 1
  echo "$pid"
}

client() { mariadb --no-defaults --socket="$SOCKET" --user=root "$@"; }

answers() { mariadb-admin --no-defaults --socket="$SOCKET" --user=root ping >/dev/null 2>&1; }

write_option_file() {
  cat >"$CNF" <<EOF
# Written by scripts/mysql84-server.sh: MySQL 8.4-like settings on MariaDB.
[mariadbd]
user = mysql
datadir = $DATA
socket = $SOCKET
pid-file = $PIDFILE
log-error = $LOG
port = $PORT
bind-address = 127.0.0.1
skip-name-resolve
character-set-server = utf8mb4
collation-server = utf8mb4_general_ci
auto_increment_increment = 2
auto_increment_offset = 2
innodb_autoinc_lock_mode = 2
sql_mode = $SQL_MODE
innodb_buffer_pool_size = 128M
EOF
}

up() {
  if pid="$(running_pid)"; then
    echo "mysql84 server runs already (pid $pid, 127.0.0.1:$PORT)"
    return 0
  fi
  if ss -ltn "sport = :$PORT" | grep -q LISTEN; then
    echo "port $PORT is taken by another process; set MYSQL84_PORT" >&2
    return 1
  fi
  mkdir -p "$BASE"
  # Leftovers of a killed server: its pid file and socket would confuse the start.
  rm -f "$PIDFILE" "$SOCKET" "$SOCKET.lock"
  write_option_file
  chown mysql:mysql "$BASE"
  if [[ ! -d "$DATA/mysql" ]]; then
    rm -rf "$DATA"
    echo "initialising $DATA"
    mariadb-install-db --no-defaults --user=mysql --datadir="$DATA" --auth-root-authentication-method=normal \
      --skip-test-db >"$BASE/install.log" 2>&1 || { cat "$BASE/install.log" >&2; return 1; }
  fi
  chown -R mysql:mysql "$BASE"
  # Started as root, mariadbd switches to the mysql user (user = mysql in the option file).
  setsid nohup "$MARIADBD" --defaults-file="$CNF" </dev/null >>"$LOG" 2>&1 &
  for _ in $(seq 1 120); do
    answers && break
    sleep 0.5
  done
  if ! answers; then
    echo "mysql84 server did not come up; the end of $LOG:" >&2
    tail -n 20 "$LOG" >&2
    return 1
  fi
  # root without password over TCP from this machine (skip-name-resolve: 127.0.0.1 and ::1 are not "localhost").
  client -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
             CREATE USER IF NOT EXISTS 'root'@'::1'; GRANT ALL ON *.* TO 'root'@'::1' WITH GRANT OPTION;"
  echo "mysql84 server up (pid $(running_pid), DATABASE_URL=mysql://root@127.0.0.1:$PORT)"
}

down() {
  local pid
  if pid="$(running_pid)"; then
    kill -TERM "$pid"
    for _ in $(seq 1 120); do
      [[ -d "/proc/$pid" ]] || break
      sleep 0.5
    done
    if [[ -d "/proc/$pid" ]]; then
      echo "mysql84 server (pid $pid) did not stop in 60 s: killing it" >&2
      kill -KILL "$pid"
    fi
    echo "mysql84 server stopped"
  else
    echo "mysql84 server is not running"
  fi
  rm -f "$PIDFILE" "$SOCKET" "$SOCKET.lock"
  if [[ "${1:-}" == "--wipe" ]]; then
    rm -rf "$BASE"
    echo "deleted $BASE"
  fi
}

status() {
  local pid
  if pid="$(running_pid)" && answers; then
    echo "mysql84 server runs (pid $pid, DATABASE_URL=mysql://root@127.0.0.1:$PORT)"
    client --batch --skip-column-names -e "SELECT CONCAT(VARIABLE_NAME, ' = ', VARIABLE_VALUE) FROM information_schema.GLOBAL_VARIABLES
      WHERE VARIABLE_NAME IN ('AUTO_INCREMENT_INCREMENT', 'AUTO_INCREMENT_OFFSET', 'INNODB_AUTOINC_LOCK_MODE', 'SQL_MODE') ORDER BY VARIABLE_NAME"
  else
    echo "mysql84 server is not running"
    return 3
  fi
}

case "${1:-}" in
  up) up ;;
  down) down "${2:-}" ;;
  status) status ;;
  -h | --help) usage ;;
  *) usage >&2; exit 2 ;;
esac
