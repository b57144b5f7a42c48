#!/usr/bin/env bash
# Lumping in the CPU's MDP default (cpu.topo-interval-vi): whole `pmc check
# --solver cpu` from QVBS sources with this tree's pmc against the tree
# before's, alternating, same machine, same run.
#
#   bash bench/lumping.sh build   this tree's pmc in $AFTER_DIR (default build-ref locally, /tmp/b on
#                                 the device) and the tree $BEFORE (default HEAD~1)'s in /tmp/before
#                                 (`git archive`; or the tree in the tarball $BEFORE_TAR, where the
#                                 checkout has no history), both release builds without CUDA
#   bash bench/lumping.sh bench   RUNS runs each (default 3), before and after alternating; prints per
#                                 case the median wall seconds [min, max] of each, after/before, the
#                                 values and the kernel (whether and how far the problem was lumped)
#   SOURCES (default .dev-lump): QVBS's consensus.{4,6}.prism, csma.3-4.prism, wlan.5.prism,
#   zeroconf.prism, firewire.false.prism and their properties files, as in its benchmarks/mdp folders;
#   CASES overrides the list below ("file constants property" per line).
set -u
PART=${1:-bench}
S=${SOURCES:-.dev-lump}
OUT=${OUT:-/tmp/pmc-out}
mkdir -p "$OUT"
AFTER_DIR=${AFTER_DIR:-build-ref}
case "$PART" in
  build)
    if [ ! -f "$AFTER_DIR/build.ninja" ]; then
      meson setup "$AFTER_DIR" -Dbuildtype=release -Dcuda=disabled > "$OUT/setup_after.log" 2>&1 || { tail -30 "$OUT/setup_after.log"; exit 1; }
    fi
    ninja -C "$AFTER_DIR" shell/pmc > "$OUT/build_after.log" 2>&1 || { tail -30 "$OUT/build_after.log"; exit 1; }
    rm -rf /tmp/before-src && mkdir -p /tmp/before-src
    if [ -n "${BEFORE_TAR:-}" ]; then
      tar -xzf "$BEFORE_TAR" -C /tmp/before-src
    else
      git archive "${BEFORE:-HEAD~1}" | tar -x -C /tmp/before-src
    fi
    (cd /tmp/before-src && meson setup /tmp/before -Dbuildtype=release -Dcuda=disabled > "$OUT/setup_before.log" 2>&1 \
      && ninja -C /tmp/before shell/pmc > "$OUT/build_before.log" 2>&1) || { tail -30 "$OUT/build_before.log"; exit 1; }
    echo "built: $AFTER_DIR/shell/pmc and /tmp/before/shell/pmc"
    ;;
  bench)
    CASES=${CASES:-"consensus.6.prism K=2 disagree
consensus.6.prism K=2 steps_min
consensus.6.prism K=2 c2
consensus.6.prism K=2 steps_max
consensus.4.prism K=16 c2
csma.3-4.prism - time_max
wlan.5.prism COL=0 time_max
zeroconf.prism N=1000,K=8,reset=false correct_min
firewire.false.prism delay=36,deadline=800 time_max"}
    props_of() { case "$1" in firewire*) echo "${1%.prism}.props" ;; *) echo "${1%%.*}.props" ;; esac; }
    one() {  # pmc file constants property: "wall-seconds value kernel"
      local consts=()
      [ "$3" != - ] && consts=(--const "$3")
      local t0=$(date +%s%N)
      timeout "${TIMEOUT:-300}" "$1" check --model "$S/$2" "${consts[@]}" --property-file "$S/$(props_of "$2")" \
        --property "$4" --solver cpu --json > "$OUT/one.json" 2> "$OUT/one.err"
      local rc=$? t1=$(date +%s%N)
      python3 - "$rc" "$(( (t1 - t0) / 1000000 ))" "$OUT/one.json" <<'PY'
import json, sys
rc, ms, path = sys.argv[1:]
try:
    d = json.loads(open(path).read().strip().splitlines()[-1])
    kernel = d.get("kernel", "")
    kernel = kernel[kernel.find("+lumped"):] if "+lumped" in kernel else ("not lumpable" if "not lumpable" in kernel else "-")
    print(f"{int(ms) / 1000:.3f} {d['value']} {kernel.replace(' ', '_')}")
except Exception:
    print(f"{int(ms) / 1000:.3f} rc={rc} -")
PY
    }
    median() { sort -g | awk '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.2f [%.2f, %.2f]", m, a[1], a[NR]}'; }
    printf "%-44s %-20s %-20s %-7s %s\n" case "before s" "after s" ratio "value before / after, kernel"
    while read -r file consts property; do
      [ -z "$file" ] && continue
      rm -f "$OUT"/r_before "$OUT"/r_after
      for ((i = 0; i < ${RUNS:-3}; ++i)); do
        if ((i % 2 == 0)); then
          one /tmp/before/shell/pmc "$file" "$consts" "$property" >> "$OUT/r_before"
          one "$AFTER_DIR/shell/pmc" "$file" "$consts" "$property" >> "$OUT/r_after"
        else
          one "$AFTER_DIR/shell/pmc" "$file" "$consts" "$property" >> "$OUT/r_after"
          one /tmp/before/shell/pmc "$file" "$consts" "$property" >> "$OUT/r_before"
        fi
      done
      b=$(cut -d' ' -f1 "$OUT/r_before" | median); a=$(cut -d' ' -f1 "$OUT/r_after" | median)
      ratio=$(awk -v b="${b%% *}" -v a="${a%% *}" 'BEGIN {printf "%.2f", a / b}')
      printf "%-44s %-20s %-20s %-7s %s / %s %s\n" "${file%.prism} ${consts} ${property}" "$b" "$a" "$ratio" \
        "$(head -1 "$OUT/r_before" | cut -d' ' -f2)" "$(head -1 "$OUT/r_after" | cut -d' ' -f2)" \
        "$(head -1 "$OUT/r_after" | cut -d' ' -f3)"
    done <<< "$CASES"
    ;;
  *) echo "usage: bash bench/lumping.sh build|bench" >&2; exit 2 ;;
esac
