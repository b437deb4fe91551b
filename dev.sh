#!/usr/bin/env bash
# The project's two entry points (see README.md):
#   ./dev.sh example   install what is missing, build, run perft of the start position
#   ./dev.sh test      install what is missing, build, run the whole test suite
#                      (release build, then AddressSanitizer + UndefinedBehaviorSanitizer,
#                      then bounded libFuzzer runs of the record parser, position
#                      text and move text)
# Also: ./dev.sh build (install and build only), ./dev.sh bench (benchmarks).
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(cmake ninja-build g++ clang libcli11-dev libabsl-dev librocksdb-dev libxxhash-dev libgtest-dev
          libgmock-dev libbenchmark-dev nlohmann-json3-dev libopenmpi-dev openmpi-bin
          # salta-show's tests: SVG checked with XML tools, the viewer in a headless browser
          python3 libxml2-utils librsvg2-bin chromium chromium-driver python3-selenium)
JOBS=${JOBS:-2}

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "dev.sh: installing ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

build() {  # build DIR [cmake options...]
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  ninja -C "$dir" -j "$JOBS"
}

case "${1:-}" in
  example)
    install_missing
    build build
    build/tools/salta-perft --divide 6
    ;;
  test)
    install_missing
    build build
    ctest --test-dir build -j "$JOBS" --output-on-failure
    build build-asan -DSALTA_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      ctest --test-dir build-asan -j "$JOBS" --output-on-failure -LE slow
    # The record parser and replay, position text and move text under
    # libFuzzer (clang), each for a bounded number of runs.
    CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DSALTA_FUZZ=ON -DSALTA_NATIVE=OFF >/dev/null
    ninja -C build-fuzz -j "$JOBS" salta_record_fuzz salta_position_fuzz salta_moves_fuzz
    ctest --test-dir build-fuzz -L fuzz --output-on-failure
    ;;
  build)
    install_missing
    build build
    ;;
  bench)
    install_missing
    build build
    build/bench/salta_bench "${@:2}"
    ;;
  *)
    echo "usage: ./dev.sh example | test | build | bench" >&2
    exit 2
    ;;
esac
