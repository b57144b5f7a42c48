#!/usr/bin/env bash
# gpu.jacobi on stationary distributions and gpu.optimistic-vi on the device
# machine, against the 16-core CPU of the same build. Logs under $OUT; the
# CUDA build in /tmp/b survives while the machine stays warm.
#
#   bash bench/gpu_solvers.sh build   release build with CUDA in /tmp/b (bench/gpu_explore.sh build)
#   bash bench/gpu_solvers.sh test    test_gpu_solvers (every carried manifest property with every GPU solver,
#                                     PMC_TEST_MAX_TRANSITIONS=0), the GPU rows of test_linear_solvers, and
#                                     compute-sanitizer memcheck of the stationary and optimistic tests
#   bash bench/gpu_solvers.sh bench   whole `pmc check` from QVBS sources, --stats --json, each once:
#                                     kanban t=5 and fms n=8 steady state at the defaults and with --solver cpu
#                                     (STEADY_CPU_TIMEOUT s, default 150), then consensus N=6 K=2's two
#                                     probabilities by gpu.interval-vi and gpu.optimistic-vi from a .pmcb
#   bash bench/gpu_solvers.sh table   the sound defaults as a user runs them, --solver cpu (TABLE_CPU_TIMEOUT s,
#                                     default 150) and the defaults (auto), whole `pmc check` from QVBS sources
#                                     (TABLE: consensus.6 + consensus.props, nand + nand.props, haddad-monmege)
#   STEADY_MODES  the --solver modes of the steady-state runs (default "auto cpu")
#   STEADY      the steady-state sources (default .dev-src/steady: QVBS kanban.prism/.props, fms.prism/.props)
#   SOURCES     bench/explore_rate.sh's sources (default .dev-src/explore/src: consensus.6.prism)
#   (and bench/device_env.sh's PMC_MODELS)
source bench/device_env.sh
PART=${1:-test}
STEADY=${STEADY:-.dev-src/steady}
S=${SOURCES:-.dev-src/explore/src}
T=${TABLE:-.dev-src/table}
case "$PART" in
  build) bash bench/gpu_explore.sh build ;;
  test)
    PMC_TEST_MAX_TRANSITIONS=0 /tmp/b/tests/test_gpu_solvers > "$OUT/test_gpu_solvers.log" 2>&1
    echo "test_gpu_solvers: exit $?"; grep -E "FAILED|Failure|^\[  PASSED|tests ran" "$OUT/test_gpu_solvers.log" | head -40
    /tmp/b/tests/test_linear_solvers --gtest_filter='*gpu*' > "$OUT/test_linear_solvers_gpu.log" 2>&1
    echo "test_linear_solvers (gpu): exit $?"; grep -E "FAILED|SKIPPED|^\[  PASSED|tests ran" "$OUT/test_linear_solvers_gpu.log" | head
    compute-sanitizer --tool memcheck --error-exitcode 1 /tmp/b/tests/test_gpu_solvers \
      --gtest_filter='GpuStationary.*:GpuOptimisticIteration.*' > "$OUT/memcheck.log" 2>&1
    echo "memcheck: exit $?"; tail -3 "$OUT/memcheck.log"
    ;;
  bench)
    for model in kanban:t=5:throughput fms:n=8:productivity; do
      IFS=: read -r name constants property <<< "$model"
      for mode in ${STEADY_MODES:-auto cpu}; do
        limit=600; [ "$mode" = cpu ] && limit=${STEADY_CPU_TIMEOUT:-150}
        /usr/bin/time -f "wall %e s peak %M KB" timeout "$limit" $PMC check --model "$STEADY/$name.prism" \
          --property-file "$STEADY/$name.props" --property "$property" --const "$constants" --solver "$mode" \
          --stats > "$OUT/steady_${name}_$mode.txt" 2>&1
        echo "== $name $constants $property --solver $mode: exit $?"; tail -22 "$OUT/steady_${name}_$mode.txt"
      done
    done
    $PMC convert $S/consensus.6.prism /tmp/c6.pmcb --const K=2 > "$OUT/convert_c6.txt" 2>&1 || cat "$OUT/convert_c6.txt"
    for property in 'Pmin=? [ F "finished" & "all_coins_equal_1" ]' 'Pmax=? [ F "finished" & !"agree" ]'; do
      for solver in gpu.interval-vi gpu.optimistic-vi gpu.vi; do
        echo "== consensus.6 $property --solver $solver"
        $PMC check --model /tmp/c6.pmcb --property "$property" --solver $solver --stats 2>&1 | tail -14
      done
    done
    ;;
  table)
    while IFS='|' read -r name source props constants property; do
      for mode in cpu auto; do
        limit=600; [ "$mode" = cpu ] && limit=${TABLE_CPU_TIMEOUT:-150}
        /usr/bin/time -f "wall %e s peak %M KB" timeout "$limit" $PMC check --model "$T/$source" \
          --property-file "$T/$props" --property "$property" --const "$constants" --solver "$mode" \
          --stats > "$OUT/table_${name}_$mode.txt" 2>&1
        echo "== $name ($constants) $property --solver $mode: exit $?"; grep -v "^pmc: " "$OUT/table_${name}_$mode.txt" | tail -6
      done
    done <<'CASES'
consensus6_disagree|consensus.6.prism|consensus.props|K=2|disagree
consensus6_steps_min|consensus.6.prism|consensus.props|K=2|steps_min
nand40|nand.prism|nand.props|N=40,K=4|reliable
nand60|nand.prism|nand.props|N=60,K=4|reliable
haddad_monmege100|haddad-monmege.pm|haddad-monmege.prctl|N=100,p=0.7|target
CASES
    ;;
esac
