#!/usr/bin/env bash
# Device-machine calls (a lent GPU machine, reached through the team's
# `device` tool: the command runs in a copy of the checkout), models carried
# in .dev/models, logs under $OUT. The build in /tmp/b survives while the
# machine stays warm.
#   bash bench/gpu_run.sh test    build, unit + GPU tests, compute-sanitizer memcheck
#   bash bench/gpu_run.sh bench   gpu_benchmark (cuSPARSE baseline, copy bandwidth)
#                                 and solver_benchmark (GPU vs 16-core CPU)
#   bash bench/gpu_run.sh synth   gpu.param-bounds tests (+ memcheck), synth_benchmark
#                                 and the seed's two problems through `pmc synth --plot`
#   bash bench/gpu_run.sh sound   sound by default: unit tests, GPU tests + memcheck of gpu.interval-vi,
#                                 every carried manifest property at the defaults (GPU auto) and
#                                 by each sound solver, then bench/sound_defaults.py (sound vs
#                                 unsound defaults, 16-core CPU and GPU, whole checks)
#   SOUND_PARTS         which of "unit gpu reference bench" the sound phase runs (default: all)
#   SOUND_MODES         bench/sound_defaults.py --mode arguments (default: unsound and sound, CPU and GPU, auto)
#   SOUND_BENCH_ARGS    extra arguments of bench/sound_defaults.py
#   bash bench/gpu_run.sh whole   the whole check on the GPU: unit tests, test_gpu_resident (device precomputation against the
#                                 CPU's sets, resident checks, release, memory limit) + memcheck, the
#                                 reference values at the defaults, then bench/whole_check_benchmark
#                                 (synthetic chains, cpu/gpu/auto, first and resident second property)
#                                 and bench/sound_defaults.py with cpu/gpu/auto modes (every carried property)
#   WHOLE_PARTS         which of "unit resident reference synthetic manifest" the whole phase runs (default: all)
#   WHOLE_BENCH_ARGS    arguments of bench/whole_check_benchmark (default: --sizes 20 --repeat 3)
#   bash bench/gpu_run.sh prism   bounded-steps GPU tests, bench/build_benchmark on 16 and 2 threads
#                                 and leader_async N7 built from its source, cpu/gpu/auto
#   PMC_SOURCES         the sources' folder for the prism phase (default .dev-src/models)
#   bash bench/gpu_run.sh exit    the CUDA runtime at process exit (bench/cudart_exit_probe.cu)
#   bash bench/gpu_run.sh repro   the csma N3_K2 reproduction at the defaults, cuda-gdb on a hang
#   bash bench/gpu_run.sh stress  bench/stress.py: pmc at its defaults STRESS_RUNS (600) times, then
#                                 SANITIZER_RUNS (40) under compute-sanitizer memcheck (instances of
#                                 100K-800K transitions: smaller ones never start CUDA, which
#                                 compute-sanitizer reports as exit 255), then tests/abi/exit_paths
#   bash bench/gpu_run.sh auto    bench/auto_choice.py: cpu / gpu / auto whole commands (AUTO_ARGS,
#                                 AUTO_REPEAT), sources in .dev-src/models, hold-outs in .dev-src/qvbs
#   bash bench/gpu_run.sh compare the same figures from an earlier tree and this one, same machine, same run:
#                                 BEFORE_TREE (default .dev-before/tree.tar.gz, `git archive REV | gzip`) built
#                                 in /tmp/bb like /tmp/b, then bench/whole_check_benchmark of each in turn
#                                 (COMPARE_WHOLE_ARGS) and bench/before_after.py: defaults, --solver gpu, and
#                                 --solver cpu below COMPARE_CPU_MAX transitions (COMPARE_ARGS: sizes, repeats)
#   bash bench/gpu_run.sh multi   row_partition unit test, test_gpu_multi_gpu (every carried model;
#                                 slices on one GPU, NCCL and 2+ GPUs where there are), memcheck,
#                                 multi_gpu_benchmark, then test_gpu_solvers (the shared kernels)
#   MULTI_BENCH_ARGS    arguments of bench/multi_gpu_benchmark
#   MULTI_SOURCES       a folder with crowds.prism, nand.prism (QVBS) and leader_async7.nm (the manifest's
#                       leader_async N7): the multi phase then also runs bench/multi_gpu_checks.py on them
#   SYNTH_BENCH_ARGS    arguments of bench/synth_benchmark
#   SYNTH_PARTS         which of "tests plots bench" the synth phase runs (default: all)
#   GPU_TEST_FILTER     gtest filter for test_gpu_solvers (default: all)
#   SANITIZER_FILTER    gtest filter for the memcheck run
#   PMC_BENCH_ARGS      arguments of bench/solver_benchmark
#   GPU_BENCH_ARGS      arguments of bench/gpu_benchmark
set -uo pipefail
OUT=${OUT:-/tmp/pmc-out}
mkdir -p "$OUT"
export PMC_MODELS=${PMC_MODELS:-$PWD/.dev/models}  # another carried folder may be named
export PATH=/usr/local/cuda/bin:$PATH
# NVLink multicast stays off on these shared hosts (device README); pmc sets
# it too where it initialises NCCL.
export NCCL_NVLS_ENABLE=0
phase=${1:-test}

source bench/device_lzma.sh

build() {
  nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1; cat "$OUT/gpu.txt"
  # A folder configured without CUDA (by another script) is started afresh.
  if [ -f /tmp/b/build.ninja ] && ! meson configure /tmp/b 2>/dev/null | grep -qE "^ *cuda +enabled"; then
    rm -rf /tmp/b
  fi
  if [ ! -f /tmp/b/build.ninja ]; then
    meson setup /tmp/b -Dcuda=enabled -Dbuildtype=release ${BUILD_OPTIONS:-} > "$OUT/setup.log" 2>&1 || { tail -30 "$OUT/setup.log"; exit 1; }
  fi
  local start=$SECONDS
  # nvcc's objects carry no header dependencies in this meson set-up: after
  # a header changed, every .cu is rebuilt.
  if [ ! -f /tmp/b/.cu-stamp ] || [ -n "$(find cuda lib include -newer /tmp/b/.cu-stamp \( -name '*.cuh' -o -name '*.hpp' -o -name '*.h' \) | head -1)" ]; then
    touch cuda/*.cu
  fi
  ninja -C /tmp/b > "$OUT/build.log" 2>&1 || { grep -E "error" -A5 "$OUT/build.log" | head -60; exit 1; }
  touch /tmp/b/.cu-stamp
  echo "build: $((SECONDS - start)) s"
}

build
if [ "$phase" = test ]; then
  echo "== unit tests"
  meson test -C /tmp/b --suite unit --print-errorlogs > "$OUT/unit.log" 2>&1
  grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$OUT/unit.log"
  echo "== GPU tests (PMC_TEST_MAX_TRANSITIONS=0: every carried model)"
  start=$SECONDS
  PMC_TEST_MAX_TRANSITIONS=0 /tmp/b/tests/test_gpu_solvers --gtest_filter="${GPU_TEST_FILTER:-*}" > "$OUT/gpu_tests.log" 2>&1
  echo "exit $? after $((SECONDS - start)) s"; head -2 "$OUT/gpu_tests.log"
  grep -E "^\[  PASSED|^\[  FAILED|tests ran" "$OUT/gpu_tests.log" | head -40
  grep -E "blocks \(" "$OUT/gpu_tests.log" | head -12
  echo "== gpu.param-bounds tests"
  /tmp/b/tests/test_gpu_param_bounds > "$OUT/gpu_param_tests.log" 2>&1
  echo "exit $?"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" "$OUT/gpu_param_tests.log" | head -20
  echo "== compute-sanitizer memcheck"
  if command -v compute-sanitizer >/dev/null; then
    start=$SECONDS
    timeout ${SANITIZER_TIMEOUT:-200} compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 \
      /tmp/b/tests/test_gpu_solvers --gtest_filter="${SANITIZER_FILTER:-Gpu*Solvers*:GpuSteps*:Manifest/GpuReference.*brp*:Manifest/GpuReference.*consensus_N2*:Manifest/GpuBlocked.*wlan_M2*}" \
      > "$OUT/memcheck.log" 2>&1
    echo "memcheck exit $? after $((SECONDS - start)) s"
    grep -E "ERROR SUMMARY|LEAK SUMMARY|^\[  PASSED|^\[  FAILED|tests ran" "$OUT/memcheck.log" | head -20
  else
    echo "compute-sanitizer not found"
  fi
elif [ "$phase" = sound ]; then
  parts=" ${SOUND_PARTS:-unit gpu reference bench} "
  if [[ $parts == *" unit "* ]]; then
  echo "== unit tests (sound linear solvers include gpu.interval-vi)"
  meson test -C /tmp/b --suite unit --print-errorlogs > "$OUT/unit.log" 2>&1
  grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$OUT/unit.log"
  fi
  if [[ $parts == *" gpu "* ]]; then
  echo "== GPU tests (every carried model)"
  start=$SECONDS
  PMC_TEST_MAX_TRANSITIONS=0 timeout ${GPU_TEST_TIMEOUT:-300} /tmp/b/tests/test_gpu_solvers \
    --gtest_filter="${GPU_TEST_FILTER:-*}" > "$OUT/gpu_tests.log" 2>&1
  echo "exit $? after $((SECONDS - start)) s"
  grep -E "^\[  PASSED|^\[  FAILED|tests ran" "$OUT/gpu_tests.log" | head -30
  if command -v compute-sanitizer >/dev/null; then
    start=$SECONDS
    timeout ${SANITIZER_TIMEOUT:-200} compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 \
      /tmp/b/tests/test_gpu_solvers --gtest_filter="${SANITIZER_FILTER:-GpuIntervalIteration.*:Manifest/GpuReference.*brp*gpu_interval*:Manifest/GpuReference.*consensus_N2*gpu_interval*}" \
      > "$OUT/memcheck.log" 2>&1
    echo "memcheck exit $? after $((SECONDS - start)) s"
    grep -E "ERROR SUMMARY|LEAK SUMMARY|^\[  PASSED|^\[  FAILED|tests ran" "$OUT/memcheck.log" | head -10
  fi
  fi
  if [[ $parts == *" reference "* ]]; then
  echo "== reference values: defaults (auto: the GPU from 100k non-zeros) and each sound solver by name"
  start=$SECONDS
  PMC_TEST_MAX_TRANSITIONS=0 timeout ${REFERENCE_TIMEOUT:-400} /tmp/b/tests/test_reference_values \
    --gtest_filter="${REFERENCE_FILTER:-Manifest/DefaultSettings.*:Manifest/ReferenceValue.*interval*:Manifest/SoundSolverStoppedEarly.*}" \
    > "$OUT/reference.log" 2>&1
  echo "exit $? after $((SECONDS - start)) s"
  grep -E "^\[  PASSED|^\[  FAILED|tests ran|Failure" "$OUT/reference.log" | head -30
  fi
  if [[ $parts == *" bench "* ]]; then
  echo "== sound vs unsound defaults, whole checks (16 cores; H100)"
  eval "set -- ${SOUND_MODES:-'--mode' 'unsound-cpu=--solver cpu --unsound' '--mode' 'sound-cpu=--solver cpu' '--mode' 'sound-gpu=--solver gpu' '--mode' 'default='}"
  timeout ${SOUND_BENCH_TIMEOUT:-400} python3 bench/sound_defaults.py /tmp/b/shell/pmc --models "$PMC_MODELS" \
    --min-transitions 100000 --repeat 3 --json "$OUT/sound_defaults.json" "$@" \
    ${SOUND_BENCH_ARGS:-} > "$OUT/sound_defaults.txt" 2>&1
  echo "exit $?"; cat "$OUT/sound_defaults.txt"
  fi
elif [ "$phase" = whole ]; then
  parts=" ${WHOLE_PARTS:-unit resident reference synthetic manifest} "
  if [[ $parts == *" unit "* ]]; then
  echo "== unit tests"
  meson test -C /tmp/b --suite unit --print-errorlogs > "$OUT/unit.log" 2>&1
  grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:" "$OUT/unit.log" | grep -v " OK " ; grep -E "^Ok:|^Fail:" "$OUT/unit.log"
  fi
  if [[ $parts == *" resident "* ]]; then
  echo "== test_gpu_resident (every carried model)"
  start=$SECONDS
  PMC_TEST_MAX_TRANSITIONS=0 timeout 300 /tmp/b/tests/test_gpu_resident > "$OUT/resident.log" 2>&1
  echo "exit $? after $((SECONDS - start)) s"
  grep -E "^\[  PASSED|^\[  FAILED|^\[       OK|tests ran|Failure|Expected|Which|  Actual|^  " "$OUT/resident.log" | head -80
  if command -v compute-sanitizer >/dev/null; then
    start=$SECONDS
    PMC_TEST_MAX_TRANSITIONS=60000 timeout 200 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 \
      /tmp/b/tests/test_gpu_resident --gtest_filter='GpuPrecomputation.*:GpuResident.AgreesWithPrism:GpuResident.MdpAgreesWithPrism' > "$OUT/memcheck_resident.log" 2>&1
    echo "memcheck exit $? after $((SECONDS - start)) s"
    grep -E "ERROR SUMMARY|LEAK SUMMARY|^\[  PASSED|^\[  FAILED" "$OUT/memcheck_resident.log" | head -10
  fi
  fi
  if [[ $parts == *" reference "* ]]; then
  echo "== reference values at the defaults, GPU solvers included (every carried model)"
  start=$SECONDS
  PMC_TEST_MAX_TRANSITIONS=0 timeout 400 /tmp/b/tests/test_reference_values > "$OUT/reference.log" 2>&1
  echo "exit $? after $((SECONDS - start)) s"
  grep -E "^\[  PASSED|^\[  FAILED|tests ran|Failure" "$OUT/reference.log" | head -30
  fi
  if [[ $parts == *" synthetic "* ]]; then
  echo "== whole_check_benchmark"
  timeout ${WHOLE_BENCH_TIMEOUT:-400} /tmp/b/bench/whole_check_benchmark ${WHOLE_BENCH_ARGS:---sizes 20 --repeat 3} \
    > "$OUT/whole_bench.txt" 2>&1
  echo "exit $?"; cat "$OUT/whole_bench.txt"
  fi
  if [[ $parts == *" manifest "* ]]; then
  echo "== sound_defaults.py: cpu / gpu / auto, whole checks of every carried property >= 100K transitions"
  timeout ${MANIFEST_BENCH_TIMEOUT:-400} python3 bench/sound_defaults.py /tmp/b/shell/pmc --models "$PMC_MODELS" \
    --min-transitions ${MANIFEST_MIN_TRANSITIONS:-100000} --repeat 3 --mode "cpu=--solver cpu" --mode "gpu=--solver gpu" --mode "auto=" \
    --json "$OUT/manifest_bench.json" > "$OUT/manifest_bench.txt" 2>&1
  echo "exit $?"; cat "$OUT/manifest_bench.txt"
  fi
elif [ "$phase" = prism ]; then
  # The PRISM-language build rate and the GPU's bounded steps. Sources in
  # ${PMC_SOURCES:-.dev-src/models} (model.{pm,sm,nm} and manifest.tsv only).
  src=${PMC_SOURCES:-$PWD/.dev-src/models}
  echo "== test_gpu_solvers: bounded steps"
  timeout 200 /tmp/b/tests/test_gpu_solvers --gtest_filter='GpuSteps.*:GpuMdpSolvers.BoundedSteps*:GpuCancellation.*' \
    > "$OUT/steps_tests.log" 2>&1
  echo "exit $?"; grep -E "^\[  PASSED|^\[  FAILED|^\[       OK|Failure|Expected|Which|  Actual" "$OUT/steps_tests.log" | head -30
  echo "== build_benchmark, 16 and 2 threads"
  timeout 150 /tmp/b/bench/build_benchmark --threads 16 --repeat 3 --models-dir "$src" > "$OUT/build16.txt" 2>&1
  echo "exit $?"; cat "$OUT/build16.txt"
  timeout 120 /tmp/b/bench/build_benchmark --threads 2 --repeat 1 --models-dir "$src" > "$OUT/build2.txt" 2>&1
  echo "exit $?"; cat "$OUT/build2.txt"
  echo "== leader_async N7 from its source: cpu / gpu / auto, whole checks"
  for mode in cpu gpu auto; do
    for rep in 1 2 3; do
      timeout 120 /tmp/b/shell/pmc check --model "$src/leader_async/N7/model.nm" --property 'Rmin=? [ F "elected" ]' \
        --solver $mode --json > "$OUT/leader7_${mode}_$rep.json" 2>&1
      python3 -c "import json,sys; r=json.loads(open(sys.argv[1]).read().splitlines()[-1]); t=r.get('timings',{}); print(sys.argv[2], r.get('solver'), r.get('value'), r.get('iterations'), 'seconds', r.get('seconds'), 'load', t.get('load'), t)" \
        "$OUT/leader7_${mode}_$rep.json" $mode || tail -3 "$OUT/leader7_${mode}_$rep.json"
    done
  done
elif [ "$phase" = multi ]; then
  nvidia-smi topo -m > "$OUT/topo.txt" 2>&1; head -8 "$OUT/topo.txt"
  /tmp/b/tests/test_row_partition > "$OUT/row_partition.log" 2>&1; echo "row_partition exit $?"
  echo "== test_gpu_multi_gpu (PMC_TEST_MAX_TRANSITIONS=0: every carried model)"
  start=$SECONDS
  PMC_TEST_MAX_TRANSITIONS=0 timeout ${MULTI_TEST_TIMEOUT:-240} /tmp/b/tests/test_gpu_multi_gpu > "$OUT/multi_tests.log" 2>&1
  echo "exit $? after $((SECONDS - start)) s"; head -2 "$OUT/multi_tests.log"
  grep -E "^\[  PASSED|^\[  FAILED|tests ran|exchange|Failure|Expected|Which|  Actual|error" "$OUT/multi_tests.log" | head -40
  if command -v compute-sanitizer >/dev/null; then
    # Copies with the CUDA API's errors reported; then everything, NCCL
    # included, without them: libnccl probes kernels it was not built for
    # (cudaFuncGetAttributes, error 209) and memcheck counts those.
    start=$SECONDS
    timeout ${SANITIZER_TIMEOUT:-150} compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 \
      /tmp/b/tests/test_gpu_multi_gpu --gtest_filter="${SANITIZER_FILTER:-MultiGpuEdges*:Manifest/MultiGpuReference.*brp_N16*copies:Manifest/MultiGpuReference.*leader_sync_3_2*copies}" \
      > "$OUT/memcheck_multi.log" 2>&1
    echo "memcheck (copies) exit $? after $((SECONDS - start)) s"
    grep -E "ERROR SUMMARY|LEAK SUMMARY|^\[  PASSED|^\[  FAILED" "$OUT/memcheck_multi.log" | head -10
    start=$SECONDS
    timeout ${SANITIZER_TIMEOUT:-150} compute-sanitizer --tool memcheck --leak-check full --report-api-errors no --error-exitcode 1 \
      /tmp/b/tests/test_gpu_multi_gpu --gtest_filter="${SANITIZER_NCCL_FILTER:-MultiGpuEdges*:MultiGpuErrors*:Manifest/MultiGpuReference.*brp_N16*:Manifest/MultiGpuReference.*leader_sync_3_2*}" \
      > "$OUT/memcheck_multi_nccl.log" 2>&1
    echo "memcheck (NCCL too, API errors not reported) exit $? after $((SECONDS - start)) s"
    grep -E "ERROR SUMMARY|LEAK SUMMARY|^\[  PASSED|^\[  FAILED" "$OUT/memcheck_multi_nccl.log" | head -10
  fi
  echo "== multi_gpu_benchmark"
  timeout ${MULTI_BENCH_TIMEOUT:-150} /tmp/b/bench/multi_gpu_benchmark ${MULTI_BENCH_ARGS:-} > "$OUT/multi_bench.txt" 2>&1
  echo "exit $?"; cat "$OUT/multi_bench.txt"
  if [ -n "${MULTI_SOURCES:-}" ]; then
    # Whole checks from .pmcb, one GPU against two: QVBS's crowds and nand
    # and the manifest's leader_async N7, copied into MULTI_SOURCES as
    # crowds.prism, nand.prism, leader_async7.nm.
    echo "== whole checks, 1 vs 2 GPUs (bench/multi_gpu_checks.py)"
    timeout ${MULTI_CHECKS_TIMEOUT:-300} python3 bench/multi_gpu_checks.py /tmp/b/shell/pmc --repeat ${MULTI_REPEAT:-3} \
      --case "crowds:$MULTI_SOURCES/crowds.prism:TotalRuns=6,CrowdSize=20:gpu.jacobi:P=? [ F observe0>1 ]" \
      --case "nand:$MULTI_SOURCES/nand.prism:N=60,K=4:gpu.jacobi:P=? [ F s=4 & z/N<0.1 ]" \
      --case "leader_async7:$MULTI_SOURCES/leader_async7.nm::gpu.vi:Rmin=? [ F \"elected\" ]" \
      > "$OUT/multi_checks.txt" 2>&1
    echo "exit $?"; cat "$OUT/multi_checks.txt"
  fi
  echo "== test_gpu_solvers (the row and Bellman kernels are shared)"
  start=$SECONDS
  PMC_TEST_MAX_TRANSITIONS=${GPU_TEST_MAX_TRANSITIONS:-0} timeout ${GPU_TEST_TIMEOUT:-200} /tmp/b/tests/test_gpu_solvers \
    --gtest_filter="${GPU_TEST_FILTER:-*}" > "$OUT/gpu_tests.log" 2>&1
  echo "exit $? after $((SECONDS - start)) s"
  grep -E "^\[  PASSED|^\[  FAILED|tests ran" "$OUT/gpu_tests.log" | head -20
elif [ "$phase" = exit ]; then
  # The static CUDA runtime at process exit (bench/cudart_exit_probe.cu):
  # which atexit hooks can still call CUDA, the start-up's parts, and what
  # ending the process does to a thread still starting CUDA.
  nvcc -O2 -std=c++20 -arch=sm_90 -o /tmp/exit_probe bench/cudart_exit_probe.cu || exit 1
  echo "== order"; /tmp/exit_probe order
  echo "== phases"; for i in 1 2 3; do /tmp/exit_probe phases; done
  for mode in race race-wait race-quick; do
    declare -A seen=()
    for i in $(seq 1 ${EXIT_RUNS:-40}); do
      delay=$(( (i * 7919) % 400000 ))
      timeout 20 /tmp/exit_probe $mode $delay > /dev/null 2>&1
      code=$?
      if [ $code -eq 124 ]; then key=hang; elif [ $code -gt 128 ]; then key="signal$((code - 128))"; else key="exit$code"; fi
      seen[$key]=$(( ${seen[$key]:-0} + 1 ))
    done
    echo "== $mode: $(for k in "${!seen[@]}"; do printf '%s=%s ' "$k" "${seen[$k]}"; done)"
    unset seen
  done
elif [ "$phase" = repro ]; then
  # The report's reproduction: csma N=3, K=2 from its source, Pmax at the
  # defaults. A run still alive after 10 s is a hang: SIGABRT makes it dump
  # core, and cuda-gdb prints every thread of the first cores (attaching to
  # the live process hung cuda-gdb itself).
  src=${REPRO_SOURCE:-.dev-src/qvbs/csma.3-2.prism}
  mkdir -p /tmp/cores; ulimit -c unlimited
  echo "/tmp/cores/core.%p" > /proc/sys/kernel/core_pattern 2>/dev/null || echo "core_pattern not writable: $(cat /proc/sys/kernel/core_pattern)"
  hangs=0; signals=0; clean=0
  for i in $(seq 1 ${REPRO_RUNS:-20}); do
    /tmp/b/shell/pmc check --model "$src" --property 'Pmax=? [ F "all_delivered" ]' > "$OUT/repro_$i.txt" 2>&1 &
    pid=$!
    for t in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
    if kill -0 $pid 2>/dev/null; then
      hangs=$((hangs + 1)); echo "run $i (pid $pid): alive after 10 s"; kill -ABRT $pid; sleep 2; kill -9 $pid 2>/dev/null
    fi
    wait $pid; code=$?
    if [ $code -gt 128 ] && [ $code -ne 134 ] && [ $code -ne 137 ]; then signals=$((signals + 1)); echo "run $i (pid $pid): signal $((code - 128))"; fi
    if [ $code -le 3 ]; then clean=$((clean + 1)); fi
  done
  echo "repro: $clean clean, $hangs hangs, $signals signals of ${REPRO_RUNS:-20}"
  ls -la /tmp/cores | head
  for core in $(ls /tmp/cores | head -${REPRO_CORES:-3}); do
    echo "== $core"
    timeout -k 5 120 cuda-gdb -batch -ex "info threads" -ex "thread apply all bt 30" /tmp/b/shell/pmc /tmp/cores/$core \
      > "$OUT/bt_$core.txt" 2>&1
    grep -E "^Thread|^#[0-9]|^\*|^  [0-9]+ +Thread" "$OUT/bt_$core.txt" | cut -c1-220 | head -120
  done
elif [ "$phase" = stress ]; then
  # Every way out of `pmc` at its defaults (bench/stress.py), then a subset
  # under compute-sanitizer.
  start=$SECONDS
  timeout ${STRESS_TIMEOUT:-500} python3 bench/stress.py /tmp/b/shell/pmc --sources .dev-src/models \
    --explicit .dev-src/explicit --runs ${STRESS_RUNS:-600} --jobs ${STRESS_JOBS:-1} --seed ${STRESS_SEED:-1} \
    --timeout ${STRESS_RUN_TIMEOUT:-60} --log "$OUT/stress.log" > "$OUT/stress.txt" 2>&1
  echo "stress exit $? after $((SECONDS - start)) s"; tail -40 "$OUT/stress.txt"
  # The library's ways out (tests/abi/exit_paths.c): a check at the defaults
  # that uses the GPU (leader_async N6's Rmin) or the CPU, then exit with the
  # model loaded, after pmc_model_free, or after dlclose.
  for case in "leader_async_N6.pmcb|Rmin=? [ F \"elected\" ]" "csma_N2_K6.pmcb|Pmax=? [ F \"all_delivered\" ]"; do
    model=/tmp/pmc-stress/${case%%|*}; property=${case#*|}
    for mode in keep free dlclose; do
      declare -A seen=()
      for i in $(seq 1 ${EXIT_PATH_RUNS:-20}); do
        timeout -k 5 60 /tmp/b/tests/exit_paths /tmp/b/lib/libpmc.so "$model" "$property" $mode > /dev/null 2>"$OUT/exit_paths.err"
        code=$?
        if [ $code -eq 124 ] || [ $code -eq 137 ]; then key=hang; elif [ $code -gt 128 ]; then key="signal$((code - 128))"; else key="exit$code"; fi
        seen[$key]=$(( ${seen[$key]:-0} + 1 ))
      done
      echo "exit_paths ${case%%|*} $mode: $(for k in "${!seen[@]}"; do printf '%s=%s ' "$k" "${seen[$k]}"; done)"
      unset seen
    done
  done
  if [ "${SANITIZER_RUNS:-40}" -gt 0 ] && command -v compute-sanitizer >/dev/null; then
    start=$SECONDS
    # A run that never touches CUDA (auto chose the CPU) is an error for
    # compute-sanitizer unless told it need not be.
    no_cuda_ok=""
    compute-sanitizer --help 2>&1 | grep -q -- --require-cuda-init && no_cuda_ok="--require-cuda-init no"
    # Every kernel is checked in its first launches; a solve's thousands of
    # later launches run unchecked, else one run takes minutes (memcheck
    # slows each launch 10-100x).
    launches=""
    compute-sanitizer --help 2>&1 | grep -q -- --launch-count && launches="--launch-count ${SANITIZER_LAUNCH_COUNT:-400}"
    timeout ${SANITIZER_TIMEOUT:-300} python3 bench/stress.py /tmp/b/shell/pmc --sources .dev-src/models \
      --runs ${SANITIZER_RUNS:-40} --jobs ${SANITIZER_JOBS:-4} --seed 7 --timeout ${SANITIZER_RUN_TIMEOUT:-240} \
      --min-transitions ${SANITIZER_MIN_TRANSITIONS:-100000} --max-transitions ${SANITIZER_MAX_TRANSITIONS:-800000} \
      --wrapper "compute-sanitizer --tool memcheck $no_cuda_ok $launches --error-exitcode 99" --log "$OUT/stress_memcheck.log" \
      > "$OUT/stress_memcheck.txt" 2>&1
    echo "memcheck stress exit $? after $((SECONDS - start)) s"; tail -20 "$OUT/stress_memcheck.txt"
  fi
elif [ "$phase" = compare ]; then
  tree=${BEFORE_TREE:-.dev-before/tree.tar.gz}
  [ -f "$tree" ] || { echo "no earlier tree at $tree (git archive REV | gzip > $tree)"; exit 1; }
  start=$SECONDS
  rm -rf /tmp/before-src && mkdir -p /tmp/before-src && tar xzf "$tree" -C /tmp/before-src
  if [ ! -f /tmp/bb/build.ninja ]; then
    (cd /tmp/before-src && meson setup /tmp/bb -Dcuda=enabled -Dbuildtype=release ${BUILD_OPTIONS:-}) > "$OUT/setup_before.log" 2>&1 \
      || { tail -30 "$OUT/setup_before.log"; exit 1; }
  fi
  ninja -C /tmp/bb shell/pmc bench/whole_check_benchmark > "$OUT/build_before.log" 2>&1 || { grep -E "error" -A5 "$OUT/build_before.log" | head -40; exit 1; }
  echo "earlier tree built: $((SECONDS - start)) s"
  for round in 1 2; do
    for which in before after; do
      bin=/tmp/b; [ $which = before ] && bin=/tmp/bb
      echo "== whole_check_benchmark, $which, round $round"
      timeout 240 $bin/bench/whole_check_benchmark ${COMPARE_WHOLE_ARGS:---sizes 20 --repeat 3} > "$OUT/whole_${which}_$round.txt" 2>&1
      echo "exit $?"; cat "$OUT/whole_${which}_$round.txt"
    done
  done
  # The defaults and the GPU on every carried model of 100K+ transitions; the
  # CPU below COMPARE_CPU_MAX transitions (consensus N6_K2 takes ~20 s a run there).
  echo "== before_after.py, defaults and --solver gpu"
  timeout ${COMPARE_TIMEOUT:-300} python3 bench/before_after.py /tmp/bb/shell/pmc /tmp/b/shell/pmc --models "$PMC_MODELS" \
    --mode "auto=" --mode "gpu=--solver gpu" ${COMPARE_ARGS:---min-transitions 100000 --repeat 3} \
    --json "$OUT/before_after.json" > "$OUT/before_after.txt" 2>&1
  echo "exit $?"; cat "$OUT/before_after.txt"
  echo "== before_after.py, --solver cpu"
  timeout ${COMPARE_TIMEOUT:-300} python3 bench/before_after.py /tmp/bb/shell/pmc /tmp/b/shell/pmc --models "$PMC_MODELS" \
    --mode "cpu=--solver cpu" ${COMPARE_ARGS:---min-transitions 100000 --repeat 3} --max-transitions ${COMPARE_CPU_MAX:-2000000} \
    --json "$OUT/before_after_cpu.json" > "$OUT/before_after_cpu.txt" 2>&1
  echo "exit $?"; cat "$OUT/before_after_cpu.txt"
elif [ "$phase" = auto ]; then
  # auto against cpu and gpu, whole commands (bench/auto_choice.py).
  start=$SECONDS
  timeout ${AUTO_TIMEOUT:-560} python3 bench/auto_choice.py /tmp/b/shell/pmc --sources .dev-src/models \
    --holdout .dev-src/qvbs --repeat ${AUTO_REPEAT:-3} ${AUTO_ARGS:-} --json "$OUT/auto_choice.json" \
    > "$OUT/auto_choice.txt" 2>&1
  echo "auto_choice exit $? after $((SECONDS - start)) s"; cat "$OUT/auto_choice.txt"
elif [ "$phase" = synth ]; then
  parts=" ${SYNTH_PARTS:-tests plots bench} "
  if [[ $parts == *" tests "* ]]; then
  echo "== gpu.param-bounds tests"
  start=$SECONDS
  /tmp/b/tests/test_gpu_param_bounds > "$OUT/gpu_param_tests.log" 2>&1
  echo "exit $? after $((SECONDS - start)) s"
  grep -E "^\[  PASSED|^\[  FAILED|^\[       OK|tests ran|Failure|Expected|Which|  Actual" "$OUT/gpu_param_tests.log" | head -40
  if command -v compute-sanitizer >/dev/null; then
    start=$SECONDS
    timeout ${SANITIZER_TIMEOUT:-200} compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 \
      /tmp/b/tests/test_gpu_param_bounds --gtest_filter="${SANITIZER_FILTER:-*Cancels*}" > "$OUT/memcheck_param.log" 2>&1
    echo "memcheck exit $? after $((SECONDS - start)) s"
    grep -E "ERROR SUMMARY|LEAK SUMMARY|^\[  PASSED|^\[  FAILED" "$OUT/memcheck_param.log" | head -10
  fi
  fi
  if [[ $parts == *" plots "* ]]; then
  echo "== pmc synth, the seed's two problems, with plots"
  start=$SECONDS
  timeout 240 /tmp/b/shell/pmc synth --model .dev/models/pctmc/sir_100.drn \
    --property 'P=? [ "infected" U[100,120] "extinct" ]' --param ki=0.005:0.3 --param kr=0.005:0.2 --max \
    --epsilon 0.01 --solver gpu.param-bounds --plot "$OUT/epidemic_max.svg" > "$OUT/epidemic_max.txt" 2>&1
  echo "exit $? after $((SECONDS - start)) s"; head -12 "$OUT/epidemic_max.txt"
  start=$SECONDS
  timeout 240 /tmp/b/shell/pmc synth --model .dev/models/pctmc/am_10_4.drn \
    --property 'P>=0.95 [ F[100,100] "correct" ]' --param k1=1:100 --param k2=1:100 --param k3=1:100 \
    --epsilon 0.1 --solver gpu.param-bounds --plot "$OUT/majority_threshold.svg" > "$OUT/majority_threshold.txt" 2>&1
  echo "exit $? after $((SECONDS - start)) s"; head -12 "$OUT/majority_threshold.txt"
  fi
  if [[ $parts == *" bench "* ]]; then
  echo "== synth_benchmark"
  timeout ${SYNTH_BENCH_TIMEOUT:-400} /tmp/b/bench/synth_benchmark ${SYNTH_BENCH_ARGS:-} > "$OUT/synth_bench.txt" 2>&1
  echo "exit $?"; cat "$OUT/synth_bench.txt"
  fi
else
  echo "== gpu_benchmark"
  timeout ${BENCH_TIMEOUT:-300} /tmp/b/bench/gpu_benchmark ${GPU_BENCH_ARGS:-} > "$OUT/gpu_bench.txt" 2>&1
  echo "exit $?"; cat "$OUT/gpu_bench.txt"
  echo "== solver_benchmark"
  timeout ${SOLVER_BENCH_TIMEOUT:-240} /tmp/b/bench/solver_benchmark ${PMC_BENCH_ARGS:---min-transitions 100000 --runs 3} \
    > "$OUT/bench.txt" 2>&1
  echo "exit $?"; cat "$OUT/bench.txt"
fi
