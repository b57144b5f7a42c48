#!/usr/bin/env bash
# Packs the built harnesses, with every shared library they load (the C
# library and its loader too), into DEST, laid out as a build folder that
# run.sh accepts (FUZZ_BUILD=DEST). For long campaigns on a machine without
# clang, or with another C library: the lent device machine's 16 cores.
#
#   tests/fuzz/bundle.sh DEST          (FUZZ_BUILD: the build folder, default build-fuzz)
#
# Debug sections are stripped to keep the bundle small: symbolise a finding's
# stack (module + offset) against the unstripped harness of FUZZ_BUILD.
set -euo pipefail
build=${FUZZ_BUILD:-build-fuzz}
dest=${1:?usage: tests/fuzz/bundle.sh DEST}
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib" "$dest/tests/fuzz"
found=0
for f in "$build"/tests/fuzz/fuzz_*; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  found=1
  name=$(basename "$f")
  strip --strip-debug -o "$dest/bin/$name" "$f"
  # Every library ldd resolves, and the loader itself.
  ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' |
    xargs -r cp -L -t "$dest/lib"
  # run.sh starts tests/fuzz/fuzz_NAME: a launcher through the packed loader.
  cat >"$dest/tests/fuzz/$name" <<LAUNCHER
#!/bin/sh
here=\$(cd "\$(dirname "\$0")/../.." && pwd)
exec "\$here/lib/ld-linux-x86-64.so.2" --library-path "\$here/lib" "\$here/bin/$name" "\$@"
LAUNCHER
  chmod +x "$dest/tests/fuzz/$name"
done
[ "$found" -eq 1 ] || { echo "no harnesses in $build/tests/fuzz: build with -Dfuzz=true first" >&2; exit 2; }
du -sh "$dest"
