#!/usr/bin/env bash
# Certified steady state (the bias sweeps' bracket, docs/decisions.md "Steady
# state certified on large bottom SCCs") on the device machine. Logs under
# $OUT; the CUDA build in /tmp/b survives while the machine stays warm.
#
#   bash bench/long_run.sh build   release build with CUDA in /tmp/b (bench/gpu_explore.sh build)
#   bash bench/long_run.sh test    the long-run and stationary tests of test_gpu_solvers and
#                                  test_linear_solvers (gpu.jacobi included), memcheck of GpuLongRun,
#                                  the QVBS polling test through pmc (tests/cli/test_qvbs_filters_time.py)
#   bash bench/long_run.sh bench   whole `pmc check` from QVBS sources, --stats --json, REPEAT times each
#                                  (default 1): each instance at the defaults and --unsound, with `auto`
#                                  and with --solver cpu (CPU_TIMEOUT s, default 150)
#   SRC    QVBS sources: kanban, fms, cluster and polling .prism/.props (default .dev-steady)
source bench/device_env.sh
PART=${1:-test}
SRC=${SRC:-.dev-steady}
case "$PART" in
  build) bash bench/gpu_explore.sh build ;;
  test)
    /tmp/b/tests/test_gpu_solvers --gtest_filter='GpuLongRun.*:GpuStationary.*:GpuAuto.*' > "$OUT/test_gpu_solvers.log" 2>&1
    echo "test_gpu_solvers: exit $?"; grep -E "FAILED|Failure|^\[  PASSED|tests ran" "$OUT/test_gpu_solvers.log" | head -20
    /tmp/b/tests/test_linear_solvers --gtest_filter='*LongRun*:*Stationary*' > "$OUT/test_linear_solvers.log" 2>&1
    echo "test_linear_solvers: exit $?"; grep -E "FAILED|SKIPPED|^\[  PASSED|tests ran" "$OUT/test_linear_solvers.log" | head
    compute-sanitizer --tool memcheck --error-exitcode 1 /tmp/b/tests/test_gpu_solvers \
      --gtest_filter='GpuLongRun.*' > "$OUT/memcheck.log" 2>&1
    echo "memcheck: exit $?"; tail -3 "$OUT/memcheck.log"
    PMC_QVBS=$PWD/$SRC/qvbs python3 tests/cli/test_qvbs_filters_time.py $PMC -k polling > "$OUT/qvbs_polling.log" 2>&1
    echo "qvbs polling: exit $?"; tail -3 "$OUT/qvbs_polling.log"
    ;;
  bench)
    Q=$SRC/qvbs/benchmarks/ctmc
    for instance in kanban/kanban:t=5:throughput fms/fms:n=8:productivity cluster/cluster:N=128,T=2000,t=20:premium_steady \
                    polling/polling.8::s1; do
      IFS=: read -r name constants property <<< "$instance"
      dir=$(dirname "$name")
      for mode in auto cpu; do
        for sound in sound unsound; do
          limit=600; [ "$mode" = cpu ] && limit=${CPU_TIMEOUT:-150}
          for run in $(seq "${REPEAT:-1}"); do
            log="$OUT/$(basename "$name")_${mode}_${sound}_$run.json"
            /usr/bin/time -f "wall %e s peak %M KB" timeout "$limit" $PMC check --model "$Q/$name.prism" \
              --property-file "$Q/$dir/$dir.props" --property "$property" ${constants:+--const "$constants"} \
              --solver "$mode" --"$sound" --json > "$log" 2> "$log.time"
            echo "== $name $constants $property --solver $mode --$sound (run $run): exit $? $(tail -1 "$log.time")"
            python3 - "$log" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print("  (no result)", e); sys.exit()
t = r.get("timings", {})
print(f"  {r['value']:.10g} [{r.get('lower')}, {r.get('upper')}] sound {r['sound']} solver {r['solver']} "
      f"it {r.get('iterations')} | load {t.get('load', 0):.3f} pre {t.get('precompute', 0):.3f} "
      f"build {t.get('build', 0):.3f} transfer {t.get('transfer', 0):.3f} solve {t.get('solve', 0):.3f} "
      f"startup {t.get('gpu_startup', 0):.3f} total {r.get('seconds', 0):.3f}")
PY
          done
        done
      done
    done
    ;;
  *) echo "usage: bench/long_run.sh build|test|bench" >&2; exit 2 ;;
esac
