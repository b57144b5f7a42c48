#!/usr/bin/env bash
# One device-machine call (see ../shared/GPU.md): build with CUDA, run the
# GPU tests and the solver benchmark on the carried models (.dev/models),
# logs under $OUT. Usage on the device: bash bench/gpu_run.sh
set -uo pipefail
OUT=${OUT:-/tmp/pmc-out}
mkdir -p "$OUT"
export PMC_MODELS=$PWD/.dev/models
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
meson setup /tmp/b -Dcuda=enabled -Dbuildtype=release > "$OUT/setup.log" 2>&1 || { tail -30 "$OUT/setup.log"; exit 1; }
ninja -C /tmp/b > "$OUT/build.log" 2>&1 || { grep -E "error" -A5 "$OUT/build.log" | head -60; exit 1; }
meson test -C /tmp/b --suite gpu --suite unit --print-errorlogs > "$OUT/test.log" 2>&1
grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$OUT/test.log"
cp /tmp/b/meson-logs/testlog.txt "$OUT/testlog.txt" 2>/dev/null
/tmp/b/tests/test_gpu_solvers > "$OUT/gpu_tests.log" 2>&1; echo "gpu tests exit: $?"; head -3 "$OUT/gpu_tests.log"; grep -E "FAILED|PASSED" "$OUT/gpu_tests.log" | tail -5
${PMC_BENCH_COMMAND:-/tmp/b/bench/solver_benchmark --min-transitions 20000 --runs 5} > "$OUT/bench.txt" 2>&1
cat "$OUT/bench.txt"
