# Sourced by the device-machine scripts (bench/gpu_run.sh and others).
# liblzma's headers (for .xz-compressed models, as Storm ships them) may be
# missing on the device's image: then Debian's packages carried in
# .dev-fuzz/debs are unpacked (apt-get download liblzma-dev liblzma5).
if ! pkg-config --exists liblzma 2>/dev/null && ls .dev-fuzz/debs/liblzma-dev_*.deb >/dev/null 2>&1; then
  for deb in .dev-fuzz/debs/*.deb; do
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
