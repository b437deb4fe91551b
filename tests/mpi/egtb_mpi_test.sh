#!/usr/bin/env bash
# Distributed endgame-table builds under mpirun: the tables built by 2 and 3
# processes have the checksums of the one-process builds; a bad flag on one
# process and a killed process end the run with a clear error, not a hang.
#   tests/mpi/egtb_mpi_test.sh TOOLS_DIR [full]
# "full" adds the whole 6x6 R=1 game (a minute or two).
set -euo pipefail
tools=$1
full=${2:-}
egtb=$tools/salta-egtb
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Quiet about this machine's missing network interfaces; no hang on a dead peer.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi() { timeout 300 mpirun --oversubscribe -np "$@"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
checksum() { sed -n 's/.*"checksum":"\([0-9a-f]*\)".*/\1/p'; }

classes=(
  "--board 4 --rows 1 --rules standard"
  "--board 4 --rows 1 --rules pre1900"
  "--board 4 --rows 1 --rules forward"
  "--board 6 --rows 1 --rules standard --white S1,S2,S3 --black S1,S2"
  "--board 6 --rows 1 --rules forward --white S1,S3 --black S2,S3"
  "--board 8 --rows 1 --rules pre1900 --white S1,S4 --black S2"
)
[ "$full" = full ] && classes+=("--board 6 --rows 1 --rules standard")
n=0
for c in "${classes[@]}"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  one=$("$egtb" build --db "$work/one-$n" $c --threads 2 --json | checksum)
  [ -n "$one" ] || fail "no checksum from the one-process build of $c"
  for k in 2 3; do
    # shellcheck disable=SC2086
    got=$(mpi "$k" "$egtb" build --db "$work/mpi-$k-$n" $c --threads 1 --json | checksum)
    [ "$got" = "$one" ] || fail "$c with $k processes: checksum $got, one process $one"
    "$egtb" verify --db "$work/mpi-$k-$n" > /dev/null || fail "$c with $k processes: verify failed"
  done
  echo "ok: $c ($one)"
done

# A distributed build killed mid-way resumes to the same table.
c="--board 6 --rows 1 --rules standard --white S1,S2,S3 --black S1,S2"
# shellcheck disable=SC2086
want=$("$egtb" build --db "$work/one-kill" $c --json | checksum)
# Killed at a moment in seconds, or that long after both processes have
# written a checkpoint ("+0", "+0.2"): the run again then resumes from a
# level both hold (or finds the table finished), never afresh.
for delay in 1 2 +0 +0.2; do
  rm -rf "$work/kill"
  # The whole job at once, as a power cut would: mpirun and every process.
  # shellcheck disable=SC2086
  mpirun --oversubscribe -np 2 "$egtb" build --db "$work/kill" $c \
    --threads 1 --checkpoint-seconds 0 --json > /dev/null 2>&1 &
  job=$!
  if [ "${delay#+}" != "$delay" ]; then
    for _ in $(seq 600); do
      [ -e "$work/kill/checkpoint-0-of-2" ] && [ -e "$work/kill/checkpoint-1-of-2" ] && break
      kill -0 "$job" 2> /dev/null || break
      sleep 0.05
    done
  fi
  sleep "${delay#+}"
  pkill -KILL -f -- "--db $work/kill" || true
  wait "$job" 2> /dev/null || true
  while pgrep -f -- "--db $work/kill" > /dev/null; do sleep 0.1; done
  # shellcheck disable=SC2086
  out=$(mpi 2 "$egtb" build --db "$work/kill" $c --threads 1 --json)
  got=$(echo "$out" | checksum)
  [ "$got" = "$want" ] || fail "resumed distributed build: checksum $got, want $want"
  if [ "${delay#+}" != "$delay" ]; then
    echo "$out" | grep -q -e '"resumed":true' -e '"already_built":true' ||
      fail "killed after its checkpoints (${delay} s), the build started afresh: $out"
  fi
done
echo "ok: a killed distributed build resumes to the same table"

# A bad flag on one process: every process ends, status 2, the error named.
set +e
out=$(timeout 120 mpirun --oversubscribe -np 1 "$egtb" build --db "$work/bad" --board 4 --rows 1 \
  : -np 1 "$egtb" build --db "$work/bad" --board 4 --rows 1 --bogus 2>&1)
status=$?
set -e
[ $status -ne 0 ] && [ $status -ne 124 ] || fail "bad flag on one process: status $status"
grep -q -- "--bogus" <<< "$out" || fail "bad flag on one process: the flag is not named: $out"
echo "ok: a bad flag on one process ends the run ($status)"

# A process killed: mpirun ends the others, no hang.
rm -rf "$work/dead"
set +e
timeout 120 mpirun --oversubscribe -np 2 bash -c \
  'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then (sleep 1; kill -9 $$) & fi; exec "$0" "$@"' \
  "$egtb" build --db "$work/dead" --board 6 --rows 1 --threads 1 > "$work/dead.out" 2>&1
status=$?
set -e
[ $status -ne 0 ] && [ $status -ne 124 ] || fail "killed process: status $status (124: it hung)"
echo "ok: a killed process ends the run ($status)"
