#!/bin/sh
# Makes the pictures of docs/salta-show.md and README.md with salta-show:
#
#   docs/pictures/make.sh [TOOLS_DIR]           write them into docs/pictures/
#   docs/pictures/make.sh --check [TOOLS_DIR]   compare them with fresh ones (a test)
#
# TOOLS_DIR holds salta-show (default: build/tools). The drawings are
# deterministic, so the committed files must equal what the tool makes now.
set -eu
cd "$(dirname "$0")/../.."
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
tools=${1:-build/tools}
out=docs/pictures
if [ $check = 1 ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
show="$tools/salta-show"

"$show" --svg "$out/start-10x10.svg"
"$show" --board 8 --svg "$out/start-8x8.svg"
"$show" --board 6 --rows 2 --svg "$out/start-6x6.svg"
# A finished game (1-0 after Black's extra move), with its last move.
"$show" --record data/games/valid/standard-10x10.sgn --game 2 --svg "$out/final-10x10.svg"

if [ $check = 1 ]; then
  status=0
  for f in start-10x10.svg start-8x8.svg start-6x6.svg final-10x10.svg; do
    if ! cmp -s "$out/$f" "docs/pictures/$f"; then
      echo "docs/pictures/$f differs from what salta-show draws now; run docs/pictures/make.sh" >&2
      status=1
    fi
  done
  exit $status
fi
