package org.pmc;

import java.util.ArrayList;
import java.util.List;

/**
 * Library-wide queries: version, solvers, GPUs. All methods are thread-safe.
 *
 * <p>The JNI library {@code libpmcjni.so} is loaded on first use of any
 * pmc class, from {@code java.library.path}, or from the absolute path in
 * the system property {@code pmc.jni.library}; it finds {@code libpmc.so}
 * through its run path or the dynamic linker's usual search
 * ({@code LD_LIBRARY_PATH}, the system directories).
 */
public final class Pmc {
  private Pmc() {}

  /** A CUDA device pmc can use. */
  public record Device(int index, String name, int computeCapabilityMajor, int computeCapabilityMinor,
                       long freeBytes, long totalBytes) {}

  /** "major.minor.patch" of the libpmc actually loaded. */
  public static String version() {
    Native.checkNotInListener();
    return Strings.decode(Native.version());
  }

  /** The libpmc actually loaded as MAJOR * 10000 + MINOR * 100 + PATCH ({@code pmc_version_number}). */
  public static int versionNumber() {
    Native.checkNotInListener();
    return Native.versionNumber();
  }

  /** PMC_VERSION_NUMBER of the pmc.h the JNI library was compiled against. */
  public static int headerVersionNumber() {
    Native.checkNotInListener();
    return Native.headerVersionNumber();
  }

  /** "major.minor.patch" of the pmc.h the JNI library was compiled against. */
  public static String headerVersion() {
    int v = headerVersionNumber();
    return v / 10000 + "." + v / 100 % 100 + "." + v % 100;
  }

  /**
   * Whether the loaded libpmc serves what the JNI library was compiled
   * against: the same major version, and not older.
   */
  public static boolean libraryIsCompatible() {
    int loaded = versionNumber();
    int header = headerVersionNumber();
    return loaded / 10000 == header / 10000 && loaded >= header;
  }

  /** pmc's English name of a status, e.g. "parse error". */
  public static String statusName(Status status) {
    Native.checkNotInListener();
    return Strings.decode(Native.statusString(status.code()));
  }

  /** The registered solver names (e.g. "cpu.jacobi", "gpu.vi"), for {@link Options#solver}. */
  public static List<String> solvers() {
    Native.checkNotInListener();
    long n = Native.solverCount();
    List<String> out = new ArrayList<>();
    for (long i = 0; i < n; ++i) {
      out.add(Strings.decode(Native.solverName(i)));
    }
    return List.copyOf(out);
  }

  /** Usable CUDA devices; empty when there is none (built without CUDA, no driver, no GPU). */
  public static List<Device> devices() {
    Native.checkNotInListener();
    long n = Native.deviceCount();
    List<Device> out = new ArrayList<>();
    for (int i = 0; i < n; ++i) {
      int[] cc = Native.deviceComputeCapability(i);
      long[] memory = Native.deviceMemory(i);
      out.add(new Device(i, Strings.decode(Native.deviceName(i)), cc[0], cc[1], memory[0], memory[1]));
    }
    return List.copyOf(out);
  }
}
