#!/usr/bin/env bash
# Runs every libFuzzer harness of tests/fuzz for SECONDS each, JOBS at once
# (default: the number of cores), and prints per harness the executions,
# edges covered (cov), features (ft), corpus size, exec/s and findings.
# Exits non-zero when any harness crashed, leaked, hit undefined behaviour,
# allocated beyond its bound or timed out, naming the input that did it.
#
#   tests/fuzz/run.sh SECONDS [JOBS]
#
# It builds nothing: build the harnesses first (README.md here), e.g.
#   CC=clang CXX=clang++ meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined \
#     -Db_lundef=false -Dcuda=disabled -Dbench=false -Dbuildtype=plain -Dcpp_args='-O1 -gline-tables-only'
#   ninja -C build-fuzz
#
# Environment:
#   FUZZ_BUILD      the build folder (default build-fuzz beside this checkout's sources)
#   FUZZ_OUT        crash artifacts and logs (default $FUZZ_BUILD/fuzz-out)
#   FUZZ_CORPUS     the corpora, one folder per harness, kept between runs
#                   (default $FUZZ_BUILD/fuzz-corpus)
#   FUZZ_HARNESSES  a space-separated subset, e.g. "drn pmcb" (default: all)
#   PMC_MODELS      reference models whose small files seed the corpora
#                   (default: the team's models folder, ../shared/models
#                   beside the sources, if it exists)
set -uo pipefail

if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]] || [ "$1" -eq 0 ] || { [ $# -ge 2 ] && ! [[ "$2" =~ ^[1-9][0-9]*$ ]]; }; then
  echo "usage: $0 SECONDS [JOBS]   (runs each harness for SECONDS, JOBS at once)" >&2
  exit 2
fi
seconds=$1
jobs=${2:-$(nproc)}

src=$(cd "$(dirname "$0")/../.." && pwd)
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
build=$(absolute "${FUZZ_BUILD:-$src/build-fuzz}")
out=$(absolute "${FUZZ_OUT:-$build/fuzz-out}")
corpora=$(absolute "${FUZZ_CORPUS:-$build/fuzz-corpus}")
models=${PMC_MODELS:-$src/../shared/models}
fuzz_dir=$src/tests/fuzz

all_harnesses="prism_tra prism_lab prism_rewards prism_sta drn pmcb storm_explicit storm_side prism_language property properties_file build_csr umb generator jani"
harnesses=${FUZZ_HARNESSES:-$all_harnesses}

# The largest input libFuzzer makes, and the bound on any single allocation
# that follows from it: readers may hold 8 items per input byte plus 2^20
# (model/validation.hpp, check_declared_count) at up to 16 bytes each, which
# is 25 MiB at 64 KiB; 64 MiB leaves room for a vector's growth. PRISM-language
# sources and JANI models are bounded by their state limit (2000 states,
# fuzz_prism_language.cpp, fuzz_jani.cpp) rather than by their size, and state
# valuations take states x variables.
# A gzip'd UMB archive may inflate ~1032:1 (66 MiB from 64 KiB), which the
# reader holds, growing its arrays to at most twice what arrived.
max_len=65536
malloc_limit_mb() { case "$1" in prism_language | umb | jani) echo 256 ;; *) echo 64 ;; esac; }

dict_for() {
  case "$1" in
    prism_tra | prism_lab | prism_rewards | prism_sta) echo prism_explicit ;;
    storm_explicit | storm_side) echo storm_explicit ;;
    drn | property | prism_language | jani) echo "$1" ;;
    properties_file) echo property ;;
    *) echo "" ;;
  esac
}

# find(1) name patterns of the files that seed each harness's corpus.
seed_patterns() {
  case "$1" in
    prism_tra | storm_explicit) echo "*.tra *.tra.gz" ;;
    prism_lab) echo "*.lab *.lab.gz" ;;
    prism_rewards) echo "*.srew *.trew *.srew.gz *.trew.gz" ;;
    prism_sta) echo "*.sta *.sta.gz" ;;
    storm_side) echo "*.lab *.state.rew *.trans.rew" ;;
    drn) echo "*.drn *.drn.gz" ;;
    pmcb) echo "*.pmcb" ;;
    umb) echo "*.umb" ;;
    prism_language) echo "*.pm *.sm *.nm *.prism" ;;
    jani) echo "*.jani *.jani.gz" ;;
    properties_file) echo "*.props *.pctl *.csl" ;;
    *) echo "" ;;
  esac
}

add_seed() {  # add_seed FILE CORPUS: copied under its content's hash, so repeats are skipped
  local name
  name=$(sha1sum <"$1" | cut -c1-16)
  [ -e "$2/$name" ] || cp "$1" "$2/$name"
}

# The committed seeds, the malformed-input corpus, the examples and the small
# files (< 64 KiB) of the reference models; .props files give one property a seed.
assemble_corpus() {
  local h=$1 dir=$2 roots=("$src/tests/data" "$src/examples") pattern f
  mkdir -p "$dir"
  if [ -d "$fuzz_dir/seeds/$h" ]; then
    for f in "$fuzz_dir/seeds/$h"/*; do [ -f "$f" ] && add_seed "$f" "$dir"; done
  fi
  [ -d "$models" ] && roots+=("$models")
  for pattern in $(seed_patterns "$h"); do
    while IFS= read -r -d '' f; do add_seed "$f" "$dir"; done \
      < <(find "${roots[@]}" -type f -name "$pattern" -size -65537c -print0 2>/dev/null)
  done
  if [ "$h" = property ]; then
    local tmp line
    tmp=$(mktemp)
    while IFS= read -r -d '' f; do
      while IFS= read -r line; do
        line=${line%%//*}
        [ -n "${line// /}" ] || continue
        printf '%s' "$line" >"$tmp"
        add_seed "$tmp" "$dir"
      done <"$f"
    done < <(find "${roots[@]}" -type f \( -name '*.props' -o -name '*.pctl' -o -name '*.csl' \) -size -65537c -print0 2>/dev/null)
    rm -f "$tmp"
  fi
}

# Reads a libFuzzer log: "execs cov ft corpus exec/s findings". A run that
# crashed has no DONE line; its last status line gives cov/ft/corpus then.
summarise() {
  awk '
    /^#[0-9]+[ \t]/ {
      for (i = 1; i <= NF; i++) {
        if ($i == "cov:") cov = $(i + 1)
        if ($i == "ft:") ft = $(i + 1)
        if ($i == "corp:") { corp = $(i + 1); sub(/\/.*/, "", corp) }
      }
      execs = substr($1, 2)
    }
    /^stat::number_of_executed_units:/ { execs = $2 }
    /^stat::average_exec_per_sec:/ { speed = $2 }
    # A slow unit (libFuzzer keeps inputs over 10 s) is no finding: under
    # load, a 1M-state header (tests/data/bad) takes that long sanitized.
    /Test unit written to/ && !/slow-unit-/ { findings++ }
    END { printf "%s %s %s %s %s %d\n", execs + 0, cov + 0, ft + 0, corp + 0, speed + 0, findings + 0 }
  ' "$1"
}

missing=0
for h in $harnesses; do
  if [ ! -x "$build/tests/fuzz/fuzz_$h" ]; then
    echo "missing $build/tests/fuzz/fuzz_$h: build with -Dfuzz=true and run ninja -C $build (see tests/fuzz/README.md)" >&2
    missing=1
  fi
done
[ "$missing" -eq 0 ] || exit 2

mkdir -p "$out" "$corpora"
# The harnesses write their inputs to files here (fuzz_support.cpp); tmpfs when there is one.
scratch_root=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && scratch_root=/dev/shm
scratch=$(mktemp -d "$scratch_root/pmc-fuzz-run.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# UBSan only reports and goes on unless told to halt; a finding must stop the run.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export OMP_NUM_THREADS=1
export PMC_FUZZ_SCRATCH=$scratch

run_one() {
  local h=$1 dict args
  local corpus=$corpora/$h artifacts=$out/$h
  mkdir -p "$artifacts"
  assemble_corpus "$h" "$corpus"
  args=(-max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -malloc_limit_mb="$(malloc_limit_mb "$h")"
        -max_len=$max_len -print_final_stats=1 -artifact_prefix="$artifacts/")
  dict=$(dict_for "$h")
  [ -n "$dict" ] && args+=(-dict="$fuzz_dir/dict/$dict.dict")
  "$build/tests/fuzz/fuzz_$h" "${args[@]}" "$corpus" >"$out/$h.log" 2>&1
  echo $? >"$out/$h.rc"
}

echo "fuzzing ${harnesses// /, } for ${seconds}s each, $jobs at once; logs and crashes in $out"
running=0
for h in $harnesses; do
  rm -f "$out/$h.rc"
  run_one "$h" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

failed=0
printf '%-16s %12s %7s %7s %7s %9s %9s\n' harness execs cov ft corpus exec/s findings
for h in $harnesses; do
  read -r execs cov ft corp speed findings < <(summarise "$out/$h.log")
  rc=$(cat "$out/$h.rc" 2>/dev/null || echo "?")
  if [ "$rc" != 0 ] && [ "$findings" -eq 0 ]; then findings=1; fi
  printf '%-16s %12s %7s %7s %7s %9s %9s\n' "$h" "$execs" "$cov" "$ft" "$corp" "$speed" "$findings"
  if [ "$rc" != 0 ] || [ "$findings" -gt 0 ]; then
    failed=1
    echo "  $h failed (exit $rc); log: $out/$h.log"
    grep -E 'pmc fuzz finding|^SUMMARY|ERROR: libFuzzer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error' "$out/$h.log" |
      head -5 | sed 's/^/    /'
    grep -o 'Test unit written to .*' "$out/$h.log" | grep -v slow-unit- | sed 's/^Test unit written to /  input: /'
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "reproduce: $build/tests/fuzz/fuzz_HARNESS INPUT   (tests/fuzz/README.md)"
fi
exit "$failed"
