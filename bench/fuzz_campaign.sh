#!/usr/bin/env bash
# Long fuzzing campaigns of tests/fuzz's harnesses on the lent device machine's
# 16 cores (it has no clang): the harnesses packed by tests/fuzz/bundle.sh and
# carried as .dev-fuzz/bundle.tar.xz (folder fb/), the corpora of the campaign
# so far as .dev-fuzz/corpus.tar.gz (folder corpus/). LANES copies of
# tests/fuzz/run.sh fuzz every harness at once for SECONDS, sharing one corpus
# per harness. Back under $OUT: each lane's table, its logs and findings
# (lanes.tar.gz), the grown corpora, and each harness's coverage over its whole
# corpus (union_coverage.txt).
#
#   LANES=2 NICE=0 [FUZZ_HARNESSES="prism_tra drn"] [COVERAGE=0] bash bench/fuzz_campaign.sh SECONDS
#
# Add the lanes' "execs" per harness, over calls, for a campaign's total.
set -uo pipefail
OUT=${OUT:-/tmp/fuzz-out}
seconds=${1:?usage: bench/fuzz_campaign.sh SECONDS}
work=/tmp/pmc-fuzz-campaign
mkdir -p "$OUT" "$work"
[ -d "$work/fb" ] || tar xJf .dev-fuzz/bundle.tar.xz -C "$work"
if [ ! -d "$work/corpus" ] && [ -f .dev-fuzz/corpus.tar.gz ]; then tar xzf .dev-fuzz/corpus.tar.gz -C "$work"; fi
export FUZZ_BUILD=$work/fb FUZZ_CORPUS=$work/corpus PMC_MODELS=/nonexistent
harnesses=${FUZZ_HARNESSES:-$(ls "$FUZZ_BUILD/tests/fuzz" | sed -n 's/^fuzz_//p')}
export FUZZ_HARNESSES="$harnesses"
for lane in $(seq 1 "${LANES:-1}"); do
  FUZZ_OUT=$work/out/lane$lane nice -n "${NICE:-0}" bash tests/fuzz/run.sh "$seconds" 64 >"$OUT/lane$lane.txt" 2>&1 &
done
wait
cat "$OUT"/lane*.txt
# The grown corpora come back first: a call that runs out of time in the
# coverage pass below still returns them.
tar czf "$OUT/corpus.tar.gz" -C "$work" corpus
# Coverage of each harness over everything its lanes found: one pass over the
# corpus (COVERAGE=0 skips it, for a call short of device time).
[ "${COVERAGE:-1}" = 0 ] && { tar czf "$OUT/lanes.tar.gz" -C "$work" out; exit 0; }
# All harnesses at once: one after another took minutes of a 10-minute call.
for h in $harnesses; do
  ( printf '%-16s %s\n' "$h" "$("$FUZZ_BUILD/tests/fuzz/fuzz_$h" -runs=0 -max_len=65536 "$FUZZ_CORPUS/$h" 2>&1 |
      grep -m1 -oE 'INITED cov: [0-9]+ ft: [0-9]+ corp: [0-9/a-zA-Z]+')" >"$work/union_$h.txt" ) &
done
wait
cat "$work"/union_*.txt | tee "$OUT/union_coverage.txt"
# The device run returns few files: the lanes' logs and findings go in one archive.
tar czf "$OUT/lanes.tar.gz" -C "$work" out
