package org.pmc;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** UTF-8 conversions for strings crossing into and out of pmc. */
final class Strings {
  private Strings() {}

  /** The UTF-8 bytes of {@code s} (no terminator); pmc strings cannot hold U+0000. */
  static byte[] encode(String s, String what) {
    Objects.requireNonNull(s, what);
    if (s.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(what + " contains a NUL character");
    }
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Like {@link #encode}, but null stays null (pmc's "default" for optional strings). */
  static byte[] encodeOptional(String s, String what) {
    return s == null ? null : encode(s, what);
  }

  static String decode(byte[] utf8) {
    return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
  }
}
