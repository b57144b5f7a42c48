#!/usr/bin/env bash
# JANI input on the device machine, with the CUDA build bench/gpu_explore.sh
# makes in /tmp/b. Logs under $OUT.
#
#   bash bench/jani_device.sh test    the JANI tests, the command-reward and explorer unit tests, and
#                                     test_gpu_explorer (GPU and CPU models bit-identical)
#   bash bench/jani_device.sh bench   whole `pmc convert SRC OUT.pmcb` of each QVBS instance from its JANI file
#                                     and from its PRISM original, same run, median of 3 (the counts asserted
#                                     equal); the JANI file's model from --build cpu and --build gpu compared
#                                     byte for byte; then `pmc check` of consensus N=8 K=2 from the JANI file
#                                     at the defaults
#   JANI         the QVBS JANI files and PRISM originals (default .dev-jani)
#   ONLY         a space-separated subset of the JANI files (default: all)
source bench/device_env.sh
PART=${1:-test}
J=${JANI:-.dev-jani}

seconds() {  # the whole command's wall seconds
  /usr/bin/time -f %e -o /tmp/seconds "$@" > /dev/null 2>> "$OUT/errors.log" || echo "FAILED: $*" >> "$OUT/errors.log"
  tail -1 /tmp/seconds
}
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
counts() { $PMC info --model "$1" ${2:+--const $2} | grep -E "^(states|transitions|choices):" | tr -s ' ' | tr '\n' ' '; }

case "$PART" in
  test)
    meson test -C /tmp/b jani prism_language_command_rewards prism_language_explore cli_jani --print-errorlogs \
      > "$OUT/unit.log" 2>&1
    echo "unit tests: exit $?"; grep -E "^ *[0-9]+/[0-9]+ " "$OUT/unit.log" | head
    PMC_TEST_MAX_TRANSITIONS=0 /tmp/b/tests/test_gpu_explorer > "$OUT/test_gpu_explorer.log" 2>&1
    echo "test_gpu_explorer: exit $?"; grep -E "FAILED|^\[  PASSED|GPU:" "$OUT/test_gpu_explorer.log" | head -20
    ;;
  bench)
    # name of the JANI file, PRISM original, constants
    while read -r jani prism constants; do
      [ -f "$J/$jani" ] || continue
      [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $jani "* ]] && continue
      const=${constants#-}
      cj=$(counts "$J/$jani" "$const"); cp_=$(counts "$J/$prism" "$const")
      [ "$cj" = "$cp_" ] || echo "COUNTS DIFFER: $jani ($cj) vs $prism ($cp_)"
      tj=(); tp=()
      for _ in 1 2 3; do
        tj+=("$(seconds $PMC convert "$J/$jani" /tmp/jani.pmcb ${const:+--const $const})")
        tp+=("$(seconds $PMC convert "$J/$prism" /tmp/prism.pmcb ${const:+--const $const})")
      done
      mj=$(median3 "${tj[@]}"); mp=$(median3 "${tp[@]}")
      printf '%-22s %-28s %s| JANI %6.2f s (%s) PRISM %6.2f s (%s) ratio %.2f\n' "$jani" "$const" "$cj" "$mj" \
        "${tj[*]}" "$mp" "${tp[*]}" "$(awk "BEGIN { print $mj / $mp }")"
      $PMC convert "$J/$jani" /tmp/jani_cpu.pmcb ${const:+--const $const} --build cpu 2>> "$OUT/errors.log"
      $PMC convert "$J/$jani" /tmp/jani_gpu.pmcb ${const:+--const $const} --build gpu 2> "$OUT/gpu_warnings.log"
      if cmp -s /tmp/jani_cpu.pmcb /tmp/jani_gpu.pmcb; then echo "  --build gpu: byte-identical to --build cpu";
      else echo "  --build gpu: DIFFERS from --build cpu"; fi
      grep -h warning "$OUT/gpu_warnings.log" | head -2
    done <<'EOF' | tee "$OUT/jani_vs_prism.txt"
consensus.6.jani consensus.6.prism K=2
csma.3-4.jani csma.3-4.prism -
crowds.jani crowds.prism TotalRuns=6,CrowdSize=20
nand.jani nand.prism N=60,K=4
egl.jani egl.prism N=8,L=2
kanban.jani kanban.prism t=5
pacman.jani pacman.nm MAXSTEPS=60
csma.4-4.jani csma.4-4.prism -
consensus.8.jani consensus.8.prism K=2
EOF
    /usr/bin/time -f "peak %M KB, %e s" $PMC check --model "$J/consensus.8.jani" --const K=2 --stats \
      --property 'Pmin=? [ F "finished" & "all_coins_equal_1" ]' > "$OUT/consensus8_jani.txt" 2>&1
    echo "== consensus.8 from JANI at the defaults (exit $?)"; tail -12 "$OUT/consensus8_jani.txt"
    ;;
esac
