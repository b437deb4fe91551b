#!/usr/bin/env bash
# Distributed perft under mpirun: 2 and 3 processes give the one-process
# count and divide (every root move's count) on several boards, presets and
# positions; a bad argument ends every process with one clear error, and a
# killed process ends the run.
#   tests/mpi/perft_mpi_test.sh TOOLS_DIR
set -euo pipefail
perft=$1/salta-perft
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi() { timeout 300 mpirun --oversubscribe -np "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# The JSON without the fields that differ from run to run.
counts() {
  python3 -c 'import json, sys
j = json.loads(sys.stdin.read())
for k in ("seconds", "nodes_per_second", "processes"): j.pop(k, None)
print(json.dumps(j, sort_keys=True))'
}

cases=(
  "6"
  "7 --hash 16"
  "5 --moves c3-d4"
  "8 --board 8 --rows 2"
  "9 --board 6 --rows 2 --rules pre1900"
  "9 --board 6 --rows 1 --rules forward"
  "12 --board 4 --rows 1"
  "0"
  "3 --board 4 --rows 1 --position w_S1d4,s1a1"
)
for c in "${cases[@]}"; do
  # Words of a case; "_" stands for a space within one.
  read -r -a argv <<< "$c"
  for i in "${!argv[@]}"; do argv[i]=${argv[i]//_/ }; done
  args="${argv[*]}"
  one=$("$perft" "${argv[@]}" --divide --json --threads 2 | counts)
  [ -n "$one" ] || fail "no count from one process for $args"
  for k in 2 3; do
    got=$(mpi "$k" "$perft" "${argv[@]}" --divide --json --threads 1)
    echo "$got" | grep -q "\"processes\":$k" || fail "$args with $k processes: $got"
    got=$(echo "$got" | counts)
    [ "$got" = "$one" ] || fail "$args with $k processes: $got, one process: $one"
  done
  echo "ok: $args ($(echo "$one" | sed "s/.*\"nodes\": *\([0-9]*\).*/\1/"))"
done

# The text output: one copy, from the first process.
want=$("$perft" 7 --divide 2> /dev/null)
got=$(mpi 3 "$perft" 7 --divide 2> /dev/null)
[ "$got" = "$want" ] || fail "text output with 3 processes differs"

# A bad position: exit status 2 and the message once.
set +e
err=$(mpi 2 "$perft" --position 'w S1a2' 3 2>&1 > /dev/null)
status=$?
set -e
[ "$status" -eq 2 ] || fail "bad position: exit status $status"
[ "$(echo "$err" | grep -c 'salta-perft: ')" -eq 1 ] || fail "bad position: $err"
echo "$err" | grep -q 'light square' || fail "bad position: $err"
echo "ok: errors"

# A bad flag on one process: every process ends, status 2, the flag named.
set +e
out=$(timeout 120 mpirun --oversubscribe -np 1 "$perft" 5 : -np 1 "$perft" --bogus 5 2>&1)
status=$?
set -e
[ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "bad flag on one process: status $status"
grep -q -- "--bogus" <<< "$out" || fail "bad flag on one process: the flag is not named: $out"
echo "ok: a bad flag on one process ends the run ($status)"

# A process killed mid-count: mpirun ends the others, no hang.
set +e
timeout 120 mpirun --oversubscribe -np 2 bash -c \
  'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then (sleep 1; kill -9 $$) & fi; exec "$0" "$@"' \
  "$perft" --threads 1 12 > /dev/null 2>&1
status=$?
set -e
[ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "killed process: status $status (124: it hung)"
echo "ok: a killed process ends the run ($status)"
