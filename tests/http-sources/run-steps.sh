#!/usr/bin/env bash
# Runs the steps of this directory (NN_name.pp, in order) with an apply
# command against two local web servers (server.py over HTTP, and over
# HTTPS with a certificate from a CA made for the run), and writes what
# each step did into OUTDIR: NN_name.out (the output, times, ports and the
# current time in checksums made timeless, then the --detailed-exitcodes
# status), NN_name.state (each file left
# under /tmp/mrtest-http/out with its mode and content) and NN_name.gets
# (the files the servers sent, sorted: a file in sync is never fetched).
#
# Before a step, NN_name.sh (if any) runs in /tmp/mrtest-http, whose doc/
# the servers serve. Steps named *_noop run with --noop; *_trusted ones
# with --ssl_trust_store naming the run's CA.
#
# Usage: run-steps.sh OUTDIR APPLY...   (APPLY: `puppet apply` or
# `marionette apply`, with their options). record.sh records
# Puppet's; crates/cli/tests/http_sources.rs compares Marionette's.
# Needs python3 and openssl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
outdir=$(mkdir -p "$1" && cd "$1" && pwd)
shift
for tool in python3 openssl; do
  command -v "$tool" >/dev/null || { echo "run-steps.sh needs $tool: apt-get install -y $tool" >&2; exit 1; }
done

work=/tmp/mrtest-http
rm -rf "$work"
mkdir -p "$work/doc" "$work/tls"
vardir=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work" "$vardir"
}
trap cleanup EXIT

printf 'from the web\n' > "$work/doc/motd"
touch -d '2024-05-01 10:00:00 UTC' "$work/doc/motd"

# A CA of the run's own, and a certificate for 127.0.0.1 signed by it.
(
  cd "$work/tls"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 \
    -subj "/CN=mrtest-http-ca" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr \
    -subj "/CN=127.0.0.1" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1\n' > ext
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
    -out server.pem -days 2 -extfile ext 2>/dev/null
)

python3 "$here/server.py" "$work/doc" "$work/http.port" & pids+=($!)
python3 "$here/server.py" "$work/doc" "$work/https.port" "$work/tls/server.pem" "$work/tls/server.key" & pids+=($!)
for _ in $(seq 100); do
  [ -f "$work/http.port" ] && [ -f "$work/https.port" ] && break
  sleep 0.1
done
http_port=$(cat "$work/http.port")
https_port=$(cat "$work/https.port")

for pp in "$here"/[0-9][0-9]_*.pp; do
  step=$(basename "$pp" .pp)
  flags=()
  case "$step" in *_noop) flags+=(--noop) ;; esac
  case "$step" in *_trusted) flags+=(--ssl_trust_store "$work/tls/ca.pem") ;; esac
  if [ -f "$here/$step.sh" ]; then
    (cd "$work" && . "$here/$step.sh")
  fi
  : > "$work/requests.log"
  set +e
  FACTER_mrtest_http_port=$http_port FACTER_mrtest_https_port=$https_port \
    "$@" --detailed-exitcodes "${flags[@]}" --vardir "$vardir" "$pp" 2>&1 \
    | grep -v '^Error: Facter:' | grep -v '^Warning: Facter:' | grep -v '^ ' | grep -v '^$' \
    | sed -E "s/ in [0-9.]+ seconds$/ in N seconds/; s/ after [0-9.]+ seconds/ after N seconds/;
              s/:$http_port\\b/:HTTP_PORT/g; s/:$https_port\\b/:HTTPS_PORT/g;
              s/\\{mtime\\}20(2[5-9]|[3-9][0-9])-[0-9-]+ [0-9:]+ \\+0000/{mtime}NOW/g;
              s#$here/##g; s/ on node .*$//; s/ for '[^']*' does not exist$/ for 'NODE' does not exist/" > "$outdir/$step.out"
  echo "exit ${PIPESTATUS[0]}" >> "$outdir/$step.out"
  set -e
  {
    find "$work/out" -type f 2>/dev/null | sort | while read -r f; do
      echo "== ${f#"$work"/out/} $(stat -c %a "$f")"
      cat "$f"
    done
  } > "$outdir/$step.state"
  grep '^GET ' "$work/requests.log" | sort > "$outdir/$step.gets" || true
done
