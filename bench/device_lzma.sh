# Sourced by the device-machine scripts (bench/gpu_run.sh and others):
# libraries the device's image lacks, from carried Debian packages.
# liblzma's headers (for .xz-compressed models, as Storm ships them) may be
# missing on the device's image: then Debian's packages carried in
# .dev-fuzz/debs are unpacked (apt-get download liblzma-dev liblzma5).
if ! pkg-config --exists liblzma 2>/dev/null && ls .dev-fuzz/debs/liblzma-dev_*.deb >/dev/null 2>&1; then
  for deb in .dev-fuzz/debs/liblzma*.deb; do
    if command -v dpkg >/dev/null; then dpkg -x "$deb" /tmp/lzma; else (mkdir -p /tmp/lzma && cd /tmp/lzma && ar p "$OLDPWD/$deb" data.tar.xz | tar xJ); fi
  done
  pc_dir=/tmp/lzma/usr/lib/x86_64-linux-gnu/pkgconfig
  # Debian's .pc names /usr outright, and its liblzma.so links to an absolute /lib path.
  sed -i "s|=/usr|=/tmp/lzma/usr|" "$pc_dir/liblzma.pc"
  ln -sf /tmp/lzma/lib/x86_64-linux-gnu/liblzma.so.5 /tmp/lzma/usr/lib/x86_64-linux-gnu/liblzma.so
  export PKG_CONFIG_PATH=$pc_dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  ldconfig -p | grep -q "liblzma.so.5 " || export LD_LIBRARY_PATH=/tmp/lzma/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "liblzma: Debian's packages unpacked in /tmp/lzma"
fi

# GMP likewise (exact rationals for ill-conditioned SCCs), from Debian's
# libgmp-dev and libgmpxx4ldbl in .dev-fuzz/debs (apt-get download); the
# C library libgmp.so.10 is the image's own.
if ! pkg-config --exists gmpxx 2>/dev/null && ls .dev-fuzz/debs/libgmp-dev_*.deb >/dev/null 2>&1; then
  for deb in .dev-fuzz/debs/libgmp*.deb; do
    if command -v dpkg >/dev/null; then dpkg -x "$deb" /tmp/gmp; else (mkdir -p /tmp/gmp && cd /tmp/gmp && ar p "$OLDPWD/$deb" data.tar.xz | tar xJ); fi
  done
  gmp_lib=/tmp/gmp/usr/lib/x86_64-linux-gnu
  sed -i "s|=/usr|=/tmp/gmp/usr|" "$gmp_lib/pkgconfig/gmp.pc" "$gmp_lib/pkgconfig/gmpxx.pc"
  sed -i "s|^Cflags: .*|Cflags: -I\${includedir} -I\${includedir}/x86_64-linux-gnu|" "$gmp_lib/pkgconfig/gmp.pc"
  system_gmp=$(ldconfig -p | awk '/libgmp\.so\.10 /{print $NF; exit}')
  [ -n "$system_gmp" ] && ln -sf "$system_gmp" "$gmp_lib/libgmp.so"
  export PKG_CONFIG_PATH=$gmp_lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export LD_LIBRARY_PATH=$gmp_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "gmp: Debian's packages unpacked in /tmp/gmp (C library: ${system_gmp:-none found})"
fi

# nlohmann-json likewise (UMB's index.json, JANI models), header-only, from
# Debian's nlohmann-json3-dev in .dev-fuzz/debs: without it the build
# answers Error(unsupported) for .umb and .jani files.
if ! pkg-config --exists nlohmann_json 2>/dev/null && ls .dev-fuzz/debs/nlohmann-json3-dev_*.deb >/dev/null 2>&1; then
  for deb in .dev-fuzz/debs/nlohmann-json3-dev_*.deb; do
    if command -v dpkg >/dev/null; then dpkg -x "$deb" /tmp/json; else (mkdir -p /tmp/json && cd /tmp/json && ar p "$OLDPWD/$deb" data.tar.xz | tar xJ); fi
  done
  sed -i "s|/usr|/tmp/json/usr|" /tmp/json/usr/share/pkgconfig/nlohmann_json.pc
  export PKG_CONFIG_PATH=/tmp/json/usr/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  echo "nlohmann-json: Debian's package unpacked in /tmp/json"
fi
