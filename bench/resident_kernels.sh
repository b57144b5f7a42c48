#!/usr/bin/env bash
# The resident interval iteration's kernels (gpu.interval-vi on a model kept
# on the device) against an earlier tree's, same machine, same run.
#
#   bash bench/resident_kernels.sh build   this tree in /tmp/b (bench/gpu_explore.sh build), and the
#                                          tree before in /tmp/before: `git archive $BEFORE` where git
#                                          is there, else this tree with the files under $BEFORE_FILES
#                                          laid over it (paths as in the repository); only its pmc
#   bash bench/resident_kernels.sh test    test_gpu_resident, test_gpu_solvers' interval tests, memcheck
#   bash bench/resident_kernels.sh bench   whole `pmc check --stats` at the defaults, before and after
#                                          alternating, RUNS runs (default 3; 2 for consensus N=8)
#   BEFORE (default HEAD), BEFORE_FILES (default .dev-old), SOURCES (default .dev-jani: QVBS's
#   consensus.{6,8}.prism, nand.prism, crowds.prism and their .props)
source bench/device_env.sh
PART=${1:-test}
S=${SOURCES:-.dev-jani}
case "$PART" in
  build)
    bash bench/gpu_explore.sh build || exit 1
    rm -rf /tmp/before-src && mkdir -p /tmp/before-src
    if git rev-parse --verify -q "${BEFORE:-HEAD}" > /dev/null 2>&1; then
      git archive "${BEFORE:-HEAD}" | tar -x -C /tmp/before-src
    else
      cp -r $(git ls-files 2>/dev/null || ls -A | grep -v '^\.dev') /tmp/before-src/ 2>/dev/null || cp -r . /tmp/before-src/
      cp -r "${BEFORE_FILES:-.dev-old}"/. /tmp/before-src/
    fi
    (cd /tmp/before-src && meson setup /tmp/before -Dcuda=enabled -Dbuildtype=release > "$OUT/setup_before.log" 2>&1 \
      && ninja -C /tmp/before shell/pmc > "$OUT/build_before.log" 2>&1) || { tail -30 "$OUT/build_before.log"; exit 1; }
    echo "before: $(tail -1 "$OUT/build_before.log")"
    ;;
  test)
    PMC_TEST_MAX_TRANSITIONS=0 /tmp/b/tests/test_gpu_resident > "$OUT/test_gpu_resident.log" 2>&1
    echo "test_gpu_resident: exit $?"; grep -E "FAILED|Failure|^\[  PASSED|tests ran" "$OUT/test_gpu_resident.log" | head -20
    PMC_TEST_MAX_TRANSITIONS=0 /tmp/b/tests/test_gpu_solvers --gtest_filter='*Interval*:*Optimistic*:*Sound*:*Mdp*:*Auto*' \
      > "$OUT/test_gpu_solvers.log" 2>&1
    echo "test_gpu_solvers (interval, MDP): exit $?"; grep -E "FAILED|Failure|^\[  PASSED|tests ran" "$OUT/test_gpu_solvers.log" | head -20
    /tmp/b/tests/test_reference_values --gtest_filter='*gpu_interval*:*DefaultSettings*' > "$OUT/test_reference_values.log" 2>&1
    echo "test_reference_values (gpu.interval-vi): exit $?"; grep -E "FAILED|^\[  PASSED|tests ran" "$OUT/test_reference_values.log" | head -20
    compute-sanitizer --tool memcheck --error-exitcode 1 /tmp/b/tests/test_gpu_resident --gtest_filter='*Mdp*:*Release*' > "$OUT/memcheck.log" 2>&1
    echo "memcheck: exit $?"; tail -2 "$OUT/memcheck.log"
    ;;
  bench)
    one() {  # pmc, file, constants, property: prints "solve-seconds iterations wall-seconds value"
      local t0=$(date +%s%N)
      "$1" check --model "$S/$2" --const "$3" --property-file "$S/${2%%.*}.props" --property "$4" --stats > "$OUT/one.txt" 2>&1
      local t1=$(date +%s%N)
      local solve=$(grep -o "solve [0-9.]* s" "$OUT/one.txt" | head -1 | awk '{print $2}')
      local its=$(grep -o "[0-9]* iterations" "$OUT/one.txt" | head -1 | awk '{print $1}')
      local value=$(grep -o ": [0-9.e+-]* ± [0-9.e+-]*" "$OUT/one.txt" | head -1 | cut -c3-)
      echo "$solve $its $(( (t1 - t0) / 1000000 )) $value"
    }
    median() { sort -g | awk '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.3f [%.3f, %.3f]", m, a[1], a[NR]}'; }
    printf "%-34s %-8s %-6s %-28s %-28s %s\n" case tree iters "solve s, median [min, max]" "whole s" value
    for c in "consensus.6.prism K=2 c2" "consensus.8.prism K=2 c2" "nand.prism N=60,K=4 reliable" \
             "crowds.prism TotalRuns=6,CrowdSize=20 positive"; do
      set -- $c
      runs=${RUNS:-3}; [ "$1" = consensus.8.prism ] && runs=${RUNS8:-2}
      rm -f "$OUT"/r_*
      for ((i = 0; i < runs; ++i)); do
        one /tmp/before/shell/pmc "$1" "$2" "$3" >> "$OUT/r_before"
        one /tmp/b/shell/pmc "$1" "$2" "$3" >> "$OUT/r_after"
      done
      for tree in before after; do
        f="$OUT/r_$tree"
        printf "%-34s %-8s %-6s %-28s %-28s %s\n" "$1 $2 $3" $tree "$(head -1 $f | awk '{print $2}')" \
          "$(awk '{print $1}' $f | median)" "$(awk '{print $3 / 1000}' $f | median)" "$(head -1 $f | cut -d' ' -f4-)"
      done
    done
    ;;
esac
