#!/usr/bin/env bash
# The GPU explorer (--build gpu) on the device machine, against the CPU's
# explorer of the same build. Logs under $OUT; the CUDA build in /tmp/b
# survives while the machine stays warm.
#
#   bash bench/gpu_explore.sh build   release build with CUDA in /tmp/b
#   bash bench/gpu_explore.sh test    test_gpu_explorer (every carried source, PMC_TEST_MAX_TRANSITIONS=0),
#                                     the explorer's unit tests (auto picks the GPU for the large ones),
#                                     test_gpu_explorer's small sources under compute-sanitizer memcheck
#   bash bench/gpu_explore.sh bench   bench/build_rate.py: `pmc convert` with --build cpu against the default
#                                     (auto: the GPU past 2^21 states; byte-identical outputs asserted), then the whole
#                                     `pmc check` of consensus N=8 K=2 from its source at the defaults
#                                     and with --build cpu (--stats)
#   SOURCES      QVBS sources as bench/explore_rate.sh names them (default .dev-src/explore/src)
#   (and bench/device_env.sh's PMC_MODELS)
source bench/device_env.sh
PART=${1:-test}
S=${SOURCES:-.dev-src/explore/src}
case "$PART" in
  build)
    nproc > "$OUT/nproc.txt"; nvidia-smi --query-gpu=name,memory.total --format=csv > "$OUT/gpu.txt" 2>&1
    if [ ! -f /tmp/b/build.ninja ]; then
      meson setup /tmp/b -Dcuda=enabled -Dbuildtype=release > "$OUT/setup.log" 2>&1 || { tail -30 "$OUT/setup.log"; exit 1; }
    fi
    ninja -C /tmp/b > "$OUT/build.log" 2>&1 || { grep -B2 -A12 "error" "$OUT/build.log" | head -80; exit 1; }
    tail -2 "$OUT/build.log"
    ;;
  test)
    PMC_TEST_MAX_TRANSITIONS=0 /tmp/b/tests/test_gpu_explorer > "$OUT/test_gpu_explorer.log" 2>&1
    echo "test_gpu_explorer: exit $?"; grep -E "FAILED|Failure|^\[  PASSED|GPU:|SKIP" "$OUT/test_gpu_explorer.log" | head -40
    meson test -C /tmp/b prism_language_explore c_api memory_limit cli --print-errorlogs > "$OUT/unit.log" 2>&1
    echo "unit tests: exit $?"; grep -E "^ *[0-9]+/[0-9]+ " "$OUT/unit.log" | head
    compute-sanitizer --tool memcheck --error-exitcode 1 /tmp/b/tests/test_gpu_explorer \
      --gtest_filter='GpuExplorer.Synch*:GpuExplorer.Errors*:GpuExplorer.Initial*' > "$OUT/memcheck.log" 2>&1
    echo "memcheck: exit $?"; tail -3 "$OUT/memcheck.log"
    ;;
  bench)
    python3 bench/build_rate.py $PMC $PMC --before-args "--build cpu" --after-args "--build auto" --repeat 3 \
      --case $S/consensus.6.prism:K=2 --case $S/nand.prism:N=60,K=4 \
      --case $S/crowds.prism:TotalRuns=6,CrowdSize=20 --case $S/csma.3-4.prism --case $S/leader_async7.nm \
      --case $S/egl.prism:N=8,L=2 --case $S/pacman.nm:MAXSTEPS=60 | tee "$OUT/rate_cpu_gpu.txt"
    python3 bench/build_rate.py $PMC $PMC --before-args "--build cpu" --after-args "--build auto" --repeat 1 \
      --case $S/consensus.8.prism:K=2 --case $S/egl.prism:N=10,L=2 | tee "$OUT/rate_cpu_gpu_large.txt"
    for build in auto cpu; do
      /usr/bin/time -f "peak %M KB" $PMC check --model $S/consensus.8.prism --const K=2 --build $build --stats \
        --property 'Pmin=? [ F "finished" & "all_coins_equal_1" ]' > "$OUT/consensus8_$build.txt" 2>&1
      echo "== consensus.8 --build $build"; cat "$OUT/consensus8_$build.txt" | tail -25
    done
    ;;
esac
