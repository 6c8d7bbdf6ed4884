# Debian's PuppetDB on a PostgreSQL cluster of its own, both on the
# loopback under a scratch directory: what scripts/puppetdb-record,
# scripts/puppetdb-record-exports and bench/storage-load start as their
# oracle. Sourced (bash); needs root and Debian's puppetdb and postgresql.
#
#   pdb_postgres WORK PORT        initdb and start a cluster in WORK/pg
#                                 (socket in WORK/sock) on 127.0.0.1:PORT,
#                                 with the role, database and pg_trgm
#                                 extension PuppetDB wants
#   pdb_postgres_stop WORK        stops it (for an EXIT trap)
#   pdb_config DIR VARDIR PG_PORT HTTP_PORT [TLS_PORT CERT KEY CA]
#                                 writes DIR/config.ini and auth.conf: plain
#                                 HTTP on HTTP_PORT, TLS on TLS_PORT with
#                                 CERT, KEY and CA when given; the lines of
#                                 $PDB_DATABASE (retention settings) go in
#                                 [database], those of $PDB_MORE (whole
#                                 sections) at the end
#   pdb_start DIR LOG [HEAP]      starts PuppetDB with the configuration in
#                                 DIR, its output in LOG (Debian's launcher,
#                                 or java with a heap of HEAP): sets pdb_pid
#   pdb_wait URL LOG [SECONDS]    waits until PuppetDB answers at URL (its
#                                 plain port), failing with LOG's end when
#                                 it dies or does not answer in SECONDS (180)

pdb_postgres() {
  local work=$1 port=$2 bin=/usr/lib/postgresql/15/bin
  mkdir -p "$work/pg" "$work/sock"
  chown postgres "$work/pg" "$work/sock"
  su postgres -s /bin/sh -c "$bin/initdb -D $work/pg -U postgres --auth=trust" >/dev/null
  su postgres -s /bin/sh -c "$bin/pg_ctl -D $work/pg -l $work/pg/server.log \
    -o '-p $port -k $work/sock -c listen_addresses=127.0.0.1' start" >/dev/null
  local sql
  for sql in "CREATE ROLE puppetdb LOGIN PASSWORD 'puppetdb'" "CREATE DATABASE puppetdb OWNER puppetdb"; do
    su postgres -s /bin/sh -c "psql -q -h $work/sock -p $port -U postgres -c \"$sql\""
  done
  su postgres -s /bin/sh -c "psql -q -h $work/sock -p $port -U postgres -d puppetdb -c 'CREATE EXTENSION pg_trgm'"
}

pdb_postgres_stop() {
  [ -d "$1/pg" ] || return 0
  su postgres -s /bin/sh -c "/usr/lib/postgresql/15/bin/pg_ctl -D $1/pg -m fast stop" >/dev/null 2>&1 || true
}

pdb_config() {
  local dir=$1 vardir=$2 pg_port=$3 http_port=$4 tls_port=${5:-} cert=${6:-} key=${7:-} ca=${8:-}
  mkdir -p "$dir" "$vardir"
  cp /etc/puppetdb/conf.d/auth.conf "$dir/"
  {
    printf '[global]\nvardir = %s\nlogging-config = /etc/puppetdb/logback.xml\n' "$vardir"
    printf '[database]\nsubname = //127.0.0.1:%s/puppetdb\nusername = puppetdb\npassword = puppetdb\n' "$pg_port"
    [ -z "${PDB_DATABASE:-}" ] || printf '%s\n' "$PDB_DATABASE"
    [ -z "${PDB_MORE:-}" ] || printf '%s\n' "$PDB_MORE"
    printf '[jetty]\nhost = 127.0.0.1\nport = %s\n' "$http_port"
    if [ -n "$tls_port" ]; then
      printf 'ssl-host = 127.0.0.1\nssl-port = %s\nssl-cert = %s\nssl-key = %s\nssl-ca-cert = %s\n' \
        "$tls_port" "$cert" "$key" "$ca"
    fi
  } >"$dir/config.ini"
}

pdb_start() {
  local dir=$1 log=$2 heap=${3:-}
  if [ -n "$heap" ]; then
    /usr/bin/java "-Xmx$heap" -cp /usr/share/puppetdb/puppetdb.jar clojure.main \
      -m puppetlabs.puppetdb.core services -c "$dir" -b /etc/puppetdb/bootstrap.cfg >"$log" 2>&1 &
  else
    /usr/sbin/puppetdb services -c "$dir" -b /etc/puppetdb/bootstrap.cfg >"$log" 2>&1 &
  fi
  pdb_pid=$!
}

pdb_wait() {
  local url=$1 log=$2 seconds=${3:-180}
  for _ in $(seq 1 "$seconds"); do
    curl -sf "$url/pdb/meta/v1/version" >/dev/null 2>&1 && return 0
    kill -0 "$pdb_pid" 2>/dev/null || { tail -50 "$log" >&2; exit 1; }
    sleep 1
  done
  curl -sf "$url/pdb/meta/v1/version" >/dev/null || { tail -50 "$log" >&2; exit 1; }
}
