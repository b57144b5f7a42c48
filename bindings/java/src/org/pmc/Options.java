package org.pmc;

/**
 * Settings for loading, building and checking ({@code pmc_options}).
 * Setters return {@code this}, so they chain:
 *
 * <pre>{@code
 * try (Options o = new Options().solver("cpu.gauss-seidel").epsilon(1e-9).absolute()) { ... }
 * }</pre>
 *
 * <p>Invalid values (an unknown solver, epsilon outside (0, 1), ...) are
 * rejected by pmc at once with a {@link PmcException}.
 *
 * <p>Thread safety (pmc.h): many threads may check with the same options at
 * once; setters need exclusive access, so a setter called while a check
 * with these options runs on another thread waits for it to finish.
 * {@link #cancel()} and {@link #resetCancel()} never wait and may be called
 * from any thread, including a {@link ProgressListener}.
 */
public final class Options extends NativeHandle {
  /** Read by checks under the shared lock, written by a setter under the exclusive lock. */
  private ProgressListener listener;

  /** Options with pmc's defaults. */
  public Options() {
    super(create(), Native::optionsFree);
  }

  private static long create() {
    Native.checkNotInListener();
    return Native.optionsCreate();
  }

  @Override
  String kind() {
    return "Options";
  }

  /**
   * The solver for checks: "auto" (default), "cpu", "gpu", or a name from
   * {@link Pmc#solvers()} such as "cpu.jacobi". Unknown names fail here.
   */
  public Options solver(String name) {
    byte[] bytes = Strings.encode(name, "solver");
    long p = acquireExclusive();
    try {
      Native.optionsSetSolver(p, bytes);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /** Convergence threshold of iterative solvers, in (0, 1); default 1e-6. */
  public Options epsilon(double epsilon) {
    long p = acquireExclusive();
    try {
      Native.optionsSetEpsilon(p, epsilon);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * true (default): precision relative to the value (sound solvers stop when
   * upper - lower &lt;= 2 epsilon lower, unsound ones when
   * max |x' - x| / |x'| &lt; epsilon); false: absolute, the same tests
   * without the division.
   */
  public Options relative(boolean relative) {
    long p = acquireExclusive();
    try {
      Native.optionsSetRelative(p, relative);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /** Same as {@code relative(false)}. */
  public Options absolute() {
    return relative(false);
  }

  /**
   * true (default): "auto", "cpu" and "gpu" pick sound solvers (interval
   * iteration), whose results carry certified bounds ({@link Result#isSound()},
   * {@link Result#bounds()}); false: they may pick faster unsound solvers
   * (PRISM's stopping rule, no error bound). A solver named with
   * {@link #solver(String)} runs either way; its result says whether it is sound.
   */
  public Options sound(boolean sound) {
    long p = acquireExclusive();
    try {
      Native.optionsSetSound(p, sound);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * true: the value as a rational ({@link Result#exact()}, "7/10"), computed
   * by "cpu.exact-pi" from the numbers as the model's source defines them;
   * unbounded P=? [F ...], P=? [... U ...] and R=?/T=? [F ...] only (other
   * properties make check() throw {@link PmcException} with
   * {@link Status#UNSUPPORTED}). Default false.
   */
  public Options exact(boolean exact) {
    long p = acquireExclusive();
    try {
      Native.optionsSetExact(p, exact);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * Iteration limit of each solve (default 1000000, at least 1); reaching it
   * makes check() throw {@link NotConvergedException}.
   */
  public Options maxIterations(long maxIterations) {
    requireNonNegative(maxIterations, "maxIterations");
    long p = acquireExclusive();
    try {
      Native.optionsSetMaxIterations(p, maxIterations);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * PRISM-language sources ({@link Model#buildPrism}): which explorer builds the
   * state space, "cpu", "gpu" (the first GPU; the same model bit for bit) or "auto"
   * (default: the CPU's, handing models of more than 2^21 states to a GPU when there is one).
   * Other names throw {@link PmcException}.
   */
  public Options build(String build) {
    byte[] bytes = Strings.encode(build, "build");
    long p = acquireExclusive();
    try {
      Native.optionsSetBuild(p, bytes);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * PRISM-language sources ({@link Model#buildPrism}): exploration fails with
   * {@link Status#MODEL} above this many reachable states; 0 (default) means no limit.
   */
  public Options maxStates(long maxStates) {
    requireNonNegative(maxStates, "maxStates");
    long p = acquireExclusive();
    try {
      Native.optionsSetMaxStates(p, maxStates);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /** CPU threads for the solvers; 0 (default) uses every core. */
  public Options threads(int threads) {
    requireNonNegative(threads, "threads");
    long p = acquireExclusive();
    try {
      Native.optionsSetThreads(p, threads);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /** GPU solvers: the device index (default 0); see {@link Pmc#devices()}. */
  public Options device(int device) {
    requireNonNegative(device, "device");
    long p = acquireExclusive();
    try {
      Native.optionsSetDevice(p, device);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * gpu.jacobi and gpu.vi: the GPUs to split the rows over (distinct indices
   * of {@link Pmc#devices()}); empty (default): automatic, every GPU only when
   * the problem does not fit one. Repeated or absurd (&gt; 1024) indices throw
   * {@link PmcException}; an index with no device fails in check().
   */
  public Options devices(long... devices) {
    java.util.Objects.requireNonNull(devices, "devices");
    long p = acquireExclusive();
    try {
      Native.optionsSetDevices(p, devices.clone());
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /** true: gpu.jacobi and gpu.vi split the rows over every usable GPU whatever the size (default false). */
  public Options allDevices(boolean all) {
    long p = acquireExclusive();
    try {
      Native.optionsSetAllDevices(p, all);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * Parametric CTMCs: check the CTMC at this point, the value of the parameter
   * {@code name} (see {@link Model#parameters()}); every parameter needs one,
   * within its range, else check() throws {@link PmcException} naming it. A
   * non-finite value throws here.
   */
  public Options parameter(String name, double value) {
    byte[] bytes = Strings.encode(name, "name");
    long p = acquireExclusive();
    try {
      Native.optionsSetParameter(p, bytes, value);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * Values of the constants properties name ({@code F<=T}, {@code P>=p}), as
   * "T=10,p=0.5", replacing those set before ("" clears them); each is typed
   * as written (10 an int, 10.0 a double: a DTMC's or MDP's step bound must be
   * an int). Malformed text throws {@link PmcException} (INVALID_ARGUMENT)
   * here; a check whose property names a constant without a value throws
   * naming it.
   */
  public Options constants(String constants) {
    byte[] bytes = Strings.encode(constants, "constants");
    long p = acquireExclusive();
    try {
      Native.optionsSetConstants(p, bytes);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /** Forgets every value set with {@link #parameter(String, double)}. */
  public Options clearParameters() {
    long p = acquireExclusive();
    try {
      Native.optionsClearParameters(p);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * Host memory loading, building and checking with these options may use, in bytes; 0 (default) means the
   * machine's (its physical memory, or the cgroup's limit when lower). A model or property that would need more
   * fails with {@link Status#OUT_OF_MEMORY} before allocating, the message giving the need and the limit.
   * {@link Model#load(java.nio.file.Path)} takes no options and uses the default.
   */
  public Options memoryLimit(long bytes) {
    requireNonNegative(bytes, "bytes");
    long p = acquireExclusive();
    try {
      Native.optionsSetMemoryLimit(p, bytes);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /** GPU solvers: device memory pmc may use, in bytes; 0 (default) means the device's free memory. */
  public Options gpuMemoryLimit(long bytes) {
    requireNonNegative(bytes, "bytes");
    long p = acquireExclusive();
    try {
      Native.optionsSetGpuMemoryLimit(p, bytes);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * Loading and building: true rejects states without outgoing transitions
   * instead of giving them a self-loop with a warning (default false).
   */
  public Options strict(boolean strict) {
    long p = acquireExclusive();
    try {
      Native.optionsSetStrict(p, strict);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /** Loading and building: allowed |sum - 1| of each DTMC/MDP row, in [0, 0.1]; default 1e-9. */
  public Options rowSumTolerance(double tolerance) {
    long p = acquireExclusive();
    try {
      Native.optionsSetRowSumTolerance(p, tolerance);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /** Progress of long solves goes to {@code listener}; null removes it. */
  public Options progressListener(ProgressListener listener) {
    long p = acquireExclusive();
    try {
      Native.optionsSetProgress(p, listener != null);
      this.listener = listener;
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * Cancels every check running with these options (they stop at their
   * solver's next iteration and throw a {@link PmcException} with status
   * {@link Status#CANCELLED}) and every check started with them later,
   * until {@link #resetCancel()}. Never waits; callable from any thread and
   * from a {@link ProgressListener}. Does nothing on closed options.
   */
  public void cancel() {
    long p = tryAcquireSharedNoWait();
    if (p == 0) {
      return;
    }
    try {
      Native.optionsRequestCancel(p);
    } finally {
      releaseShared();
    }
  }

  /** Clears the cancel flag set by {@link #cancel()}. Does nothing on closed options. */
  public void resetCancel() {
    long p = tryAcquireSharedNoWait();
    if (p == 0) {
      return;
    }
    try {
      Native.optionsResetCancel(p);
    } finally {
      releaseShared();
    }
  }

  /** The listener to pass to a check; the caller holds the shared lock. */
  ProgressListener listenerLocked() {
    return listener;
  }

  private static void requireNonNegative(long value, String what) {
    if (value < 0) {
      throw new IllegalArgumentException(what + " must not be negative (got " + value + ")");
    }
  }
}
