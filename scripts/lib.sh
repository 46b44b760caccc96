# Shared set-up for scripts/run and scripts/test. Sourced, not run.
# Installs what a fresh Debian machine lacks, builds .venv, writes .env, and starts the
# system services the project expects on this machine (Redis, MariaDB, PostgreSQL).

PYTHON=${PYTHON:-python3}

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

apt_install() {
  # Only as root and only what is missing; a developer without root installs by hand.
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "Missing Debian packages: ${missing[*]} (install them with apt-get as root)" >&2
    return 1
  fi
  say "apt-get install ${missing[*]}"
  local options=()
  [ -n "${APT_NO_RECOMMENDS:-}" ] && options+=(--no-install-recommends)
  apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${options[@]}" "${missing[@]}" >/dev/null
}

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_port() {
  for _ in $(seq 1 60); do port_open "$1" "$2" && return 0; sleep 0.5; done
  echo "nothing answers on $1:$2" >&2; return 1
}

ensure_system_services() {
  apt_install redis-server mariadb-server postgresql postgresql-contrib chromium
  if ! port_open 127.0.0.1 6379 && [ -z "${REDIS_URL:-}" ]; then
    say "starting redis-server"
    mkdir -p var/redis
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
      --dir "$PWD/var/redis" --logfile "$PWD/var/redis/redis.log"
    wait_port 127.0.0.1 6379
  fi
  if ! port_open 127.0.0.1 3306; then
    say "starting MariaDB"
    mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld 2>/dev/null || true
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
    wait_port 127.0.0.1 3306
  fi
  if ! port_open 127.0.0.1 5432; then
    say "starting the system PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start
    wait_port 127.0.0.1 5432
  fi
}

# pip, without the per-package notes about local mirror folders that do not exist.
quiet_pip() { pip -q "$@" 2> >(grep -v "^WARNING: Location" >&2); }

ensure_venv() {
  if [ ! -x .venv/bin/python ] && ! "$PYTHON" -c "import ensurepip, venv" 2>/dev/null; then
    apt_install python3-venv  # Debian ships venv's pip bootstrap separately
  fi
  if [ ! -x .venv/bin/python ]; then
    say "creating .venv"
    "$PYTHON" -m venv .venv
  fi
  # shellcheck disable=SC1091
  . .venv/bin/activate
  local stamp=.venv/.requirements.sha
  local want
  want=$(cat requirements/*.txt | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing Python dependencies"
    # The CPU build of torch first, so that sentence-transformers does not pull CUDA.
    quiet_pip install -r requirements/torch.txt
    quiet_pip install -r requirements/dev.txt
    echo "$want" > "$stamp"
  fi
}

ensure_env_file() {
  if [ ! -f .env ]; then
    say "writing .env with a fresh SECRET_KEY"
    local key
    key=$(python -c 'import secrets; print(secrets.token_urlsafe(50))')
    sed "s|^SECRET_KEY=.*|SECRET_KEY=$key|" .env.example > .env
  fi
  # An .env written before SQL_DEFAULT_SCOPE defaulted to none keeps the demo's "all".
  grep -q '^SQL_DEFAULT_SCOPE=' .env || echo 'SQL_DEFAULT_SCOPE=all' >> .env
}

setup() {
  ensure_system_services
  ensure_venv
  ensure_env_file
  mkdir -p var
}
