#!/usr/bin/env bash
# ThreadSanitizer run of the C ABI concurrency test:
# tests/unit/test_c_api_concurrency.cpp, built with clang -fsanitize=thread
# in its own build directory ($TSAN_BUILD, default build-tsan), only that
# program. CI calls `bash tests/sanitizers/tsan.sh` and counts it as one
# test: exit status 0 and a last line "tsan: PASS ..." only when the test
# passed and TSan reported nothing.
#
# OpenMP: clang links LLVM's libomp, which is not built with TSan, so TSan
# cannot see the barriers that end a parallel region and would report every
# vector a worker writes and the calling thread then reads. Rather than
# suppressing libomp (which hides the reports on pmc's own data too) or
# running the solvers on one thread (no parallel regions at all), we load
# Archer (libarcher.so, shipped beside libomp): through the OpenMP tool
# interface it tells TSan about every fork, barrier, reduction and lock of
# libomp, so the parallel sweeps of the test (two threads on models above
# k_parallel_rows) are checked as precisely as pmc's std::thread and mutex
# code. tsan.supp stays empty unless a report is understood and harmless.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${TSAN_BUILD:-build-tsan}
cd "$root"
start=$(date +%s)

fail() {
  echo "tsan: FAIL ($1)"
  exit 1
}

command -v clang++ >/dev/null || fail "clang++ not found (install clang and libomp-dev)"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ meson setup "$build" -Db_sanitize=thread -Db_lundef=false -Dcuda=disabled -Dbench=false \
    -Dbuildtype=plain -Dcpp_args='-O1 -gline-tables-only' || fail "meson setup of $build"
fi
# One compile job per core (ninja would run cores + 2).
ninja -C "$build" -j "${TSAN_JOBS:-$(nproc)}" tests/test_c_api_concurrency || fail "build of tests/test_c_api_concurrency"
built=$(date +%s)

program="$build/tests/test_c_api_concurrency"
libomp=$(ldd "$program" | awk '/libomp/ { print $3; exit }')
[ -n "$libomp" ] || fail "$program does not link libomp: was it built with clang?"
archer="$(dirname "$(readlink -f "$libomp")")/libarcher.so"
[ -f "$archer" ] || fail "no $archer (LLVM's OpenMP package, e.g. libomp-14-dev, ships it)"

# ignore_noninstrumented_modules, as Archer asks: calls that uninstrumented
# libomp makes internally are not checked (they would give false reports
# from the runtime's own bookkeeping); pmc's code, the test's and the STL
# templates they instantiate are instrumented and fully checked.
log="$build/tsan.log"
status=0
OMP_TOOL_LIBRARIES="$archer" ARCHER_OPTIONS="verbose=1" \
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 exitcode=66 ignore_noninstrumented_modules=1 suppressions=$root/tests/sanitizers/tsan.supp" \
  "$program" 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
end=$(date +%s)
timing="build $((built - start)) s, run $((end - built)) s"
[ "$status" -eq 66 ] && fail "ThreadSanitizer reported a race (above); $timing"
[ "$status" -ne 0 ] && fail "test_c_api_concurrency exited with $status; $timing"
grep -q "Archer detected OpenMP application with TSan" "$log" || fail "Archer was not loaded ($archer)"
# A skipped scenario (reference models not found) checked nothing: say so.
grep -q "^\[  SKIPPED \]" "$log" && fail "scenarios were skipped (above): set PMC_MODELS; $timing"
echo "tsan: PASS test_c_api_concurrency under ThreadSanitizer with Archer ($timing)"
