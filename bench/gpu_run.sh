#!/usr/bin/env bash
# One device-machine call (see ../shared/GPU.md): build with CUDA, run the
# unit tests, the GPU tests and the benchmarks on the carried models
# (.dev/models), logs under $OUT. Usage on the device: bash bench/gpu_run.sh
#   GPU_TEST_FILTER   gtest filter for tests/test_gpu_solvers (default: all)
#   PMC_BENCH_ARGS    arguments of bench/solver_benchmark
set -uo pipefail
OUT=${OUT:-/tmp/pmc-out}
mkdir -p "$OUT"
export PMC_MODELS=$PWD/.dev/models
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1; cat "$OUT/gpu.txt"
meson setup /tmp/b -Dcuda=enabled -Dbuildtype=release > "$OUT/setup.log" 2>&1 || { tail -30 "$OUT/setup.log"; exit 1; }
ninja -C /tmp/b > "$OUT/build.log" 2>&1 || { grep -E "error" -A5 "$OUT/build.log" | head -60; exit 1; }
echo "== unit tests"
meson test -C /tmp/b --suite unit --print-errorlogs > "$OUT/unit.log" 2>&1
grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$OUT/unit.log"
echo "== GPU tests"
/tmp/b/tests/test_gpu_solvers --gtest_filter="${GPU_TEST_FILTER:-*}" > "$OUT/gpu_tests.log" 2>&1
echo "exit $?"; head -2 "$OUT/gpu_tests.log"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]" "$OUT/gpu_tests.log" | head -30
echo "== load benchmark (host CPU)"
/tmp/b/bench/load_benchmark "$PMC_MODELS/leader_async/N6/leader_async.tra.gz" 2>&1 | tee "$OUT/load.txt"
echo "== solver benchmark"
timeout ${BENCH_TIMEOUT:-240} /tmp/b/bench/solver_benchmark ${PMC_BENCH_ARGS:---min-transitions 20000 --runs 5} > "$OUT/bench.txt" 2>&1
cat "$OUT/bench.txt"
