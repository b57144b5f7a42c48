#!/usr/bin/env bash
# Sound value iteration (cpu.sound-vi, gpu.sound-vi) against the interval
# solvers on consensus (QVBS), on the device machine. Logs under $OUT; the
# CUDA build in /tmp/b is bench/gpu_explore.sh's (run its `build` first).
#
#   bash bench/sound_vi.sh test   the MDP solvers' unit tests and the GPU solvers' sound-solver tests
#   bash bench/sound_vi.sh gpu    consensus N=6 K=2 (.pmcb): every property with gpu.sound-vi and gpu.interval-vi
#   bash bench/sound_vi.sh cpu    the first three with cpu.sound-vi, cpu.interval-vi and cpu.topo-interval-vi
#                                 (or CPU_SOLVERS; timeout CPU_TIMEOUT, 60 s)
#   bash bench/sound_vi.sh large  consensus N=8 K=2: c2 with gpu.sound-vi and gpu.interval-vi, then the default
#   SRC   where consensus.{6,8}.prism are (default .dev-jani)
source bench/device_env.sh
PART=${1:-test}
SRC=${SRC:-.dev-jani}
PROPERTIES=('Pmin=? [ F "finished" & "all_coins_equal_1" ]' 'Pmax=? [ F "finished" & !"agree" ]'
            'R{"steps"}min=? [ F "finished" ]' 'R{"steps"}max=? [ F "finished" ]')
# One line per check: solver, iterations, the value and its bounds, solve and total seconds.
summary() {
  python3 -c '
import json, sys
for line in sys.stdin:
    line = line.strip()
    if not line.startswith("{"): continue
    d = json.loads(line)
    for r in d.get("results", [d]):
        t = r.get("timings", {})
        print("   ", r.get("solver"), r.get("iterations"), "it.", "value", r.get("value"), "bounds", r.get("lower"), r.get("upper"),
              "sound", r.get("sound"), "solve", t.get("solve"), "s, total", t.get("total"), "s")
'
}
run_checks() {  # model, solvers..., each property
  local model=$1; shift
  for property in "${PROPERTIES[@]}"; do
    for solver in "$@"; do
      echo "== $(basename $model) $property --solver $solver"
      timeout "${CPU_TIMEOUT:-60}" $PMC check --model "$model" --property "$property" --solver $solver --json \
        > "$OUT/check.json" 2> "$OUT/check.err"
      echo "   exit $?"; summary < "$OUT/check.json"; grep -v "^pmc: " "$OUT/check.err" | tail -3
    done
  done
}
case "$PART" in
  test)
    /tmp/b/tests/test_mdp_solvers > "$OUT/test_mdp_solvers.log" 2>&1; echo "test_mdp_solvers: exit $?"
    tail -2 "$OUT/test_mdp_solvers.log"
    /tmp/b/tests/test_gpu_solvers --gtest_filter='Gpu*Iteration*' > "$OUT/test_gpu_solvers.log" 2>&1
    echo "test_gpu_solvers (sound and interval): exit $?"; grep -E "FAILED|Failure|^\[  PASSED" "$OUT/test_gpu_solvers.log" | head -20
    /tmp/b/tests/test_reference_values --gtest_filter='*sound_vi*' > "$OUT/test_reference_values.log" 2>&1
    echo "test_reference_values (cpu.sound-vi and gpu.sound-vi on the manifest): exit $?"
    echo "gpu.sound-vi cases passed: $(grep -c 'OK \].*gpu_sound_vi' "$OUT/test_reference_values.log")"
    grep -E "FAILED|^\[  PASSED" "$OUT/test_reference_values.log" | head
    ;;
  gpu)
    [ -f /tmp/c6.pmcb ] || $PMC convert $SRC/consensus.6.prism /tmp/c6.pmcb --const K=2 > "$OUT/convert_c6.txt" 2>&1
    run_checks /tmp/c6.pmcb gpu.sound-vi gpu.interval-vi
    ;;
  cpu)
    [ -f /tmp/c6.pmcb ] || $PMC convert $SRC/consensus.6.prism /tmp/c6.pmcb --const K=2 > "$OUT/convert_c6.txt" 2>&1
    PROPERTIES=("${PROPERTIES[@]:0:3}")
    run_checks /tmp/c6.pmcb ${CPU_SOLVERS:-cpu.sound-vi cpu.interval-vi cpu.topo-interval-vi}
    ;;
  large)
    [ -f /tmp/c8.pmcb ] || $PMC convert $SRC/consensus.8.prism /tmp/c8.pmcb --const K=2 > "$OUT/convert_c8.txt" 2>&1
    PROPERTIES=("${PROPERTIES[0]}")
    CPU_TIMEOUT=200 run_checks /tmp/c8.pmcb gpu.sound-vi gpu.interval-vi
    ;;
esac
