package org.pmc;

import java.util.Objects;

/**
 * The outcome of one {@link Model#check}: a value per state and how it was
 * computed ({@code pmc_result}). Owns native memory: close it (try-with-resources).
 *
 * <p>Thread safety: a result is immutable; any number of threads may read it
 * at once. {@link #close()} waits for reads in progress; later reads throw
 * {@link IllegalStateException}.
 */
public final class Result extends NativeHandle {
  /** Minimum and maximum value over the initial states, and how many there are. */
  public record InitialRange(double min, double max, long count) {}

  /** Certified bounds on the value in the first initial state: the exact value lies in [lower, upper]. */
  public record Bounds(double lower, double upper) {}

  /** Certified bounds in every state: {@code lower[s] <= exact value of s <= upper[s]}. */
  public record BoundValues(double[] lower, double[] upper) {}

  /**
   * Seconds a check spent in each phase (the phases do not overlap; {@code total} is their sum).
   *
   * @param load loading the model: 0 for results of {@link Model#check}, which does not load it
   * @param gpuStartup waiting for the CUDA context (0 once it exists, and on the CPU)
   * @param precompute graph algorithms: prob0/prob1, Prob0A/E, 1A/E, SCCs, BSCCs
   * @param build equation systems and iteration matrices, on the host or the device
   * @param transfer copies between host and device
   * @param solve the solvers' iteration loops (GPU: timed by CUDA events)
   * @param other everything else (parsing the property, results, ...)
   * @param total the sum of the seven phases: {@link Result#seconds()} plus {@code load}
   */
  public record Timings(double load, double gpuStartup, double precompute, double build, double transfer,
                        double solve, double other, double total) {}

  Result(long pointer) {
    super(pointer, Native::resultFree);
  }

  @Override
  String kind() {
    return "Result";
  }

  /**
   * The value in the first initial state (1 or 0 for a boolean property;
   * +infinity for an infinite expected reward).
   */
  public double initialValue() {
    long p = acquireShared();
    try {
      return Native.resultInitialValue(p);
    } finally {
      releaseShared();
    }
  }

  /** Minimum and maximum over all initial states, and their number. */
  public InitialRange initialRange() {
    double[] minMax = new double[2];
    long p = acquireShared();
    try {
      long count = Native.resultInitialRange(p, minMax);
      return new InitialRange(minMax[0], minMax[1], count);
    } finally {
      releaseShared();
    }
  }

  /** The value of every state (a new array on each call). */
  public double[] values() {
    long p = acquireShared();
    try {
      return Native.resultValues(p);
    } finally {
      releaseShared();
    }
  }

  /**
   * The value in the state whose bytes are {@code state} of {@code model},
   * the model checked, explored from a {@link Generator}:
   * {@code values()[model.findState(state)]}. Reads every value: for many
   * states, read {@link #values()} once and index it with
   * {@link Model#findState}.
   *
   * @throws PmcException as {@link Model#findState(byte[])}
   */
  public double valueOf(Model model, byte[] state) {
    long index = Objects.requireNonNull(model, "model").findState(state);
    return values()[Math.toIntExact(index)];
  }

  /** {@link #valueOf(Model, byte[])} with the state given as unsigned byte values, one per argument. */
  public double valueOf(Model model, int... state) {
    return valueOf(model, Generator.toBytes(state, "state"));
  }

  /** Whether the property is boolean (a bound such as P&gt;=0.9, or a state formula): values are then 1 or 0. */
  public boolean isBoolean() {
    long p = acquireShared();
    try {
      return Native.resultIsBoolean(p);
    } finally {
      releaseShared();
    }
  }

  /** Iterations of all numerical solves, summed. */
  public long iterations() {
    long p = acquireShared();
    try {
      return Native.resultIterations(p);
    } finally {
      releaseShared();
    }
  }

  /** false when some solve reached its iteration limit. */
  public boolean converged() {
    long p = acquireShared();
    try {
      return Native.resultConverged(p);
    } finally {
      releaseShared();
    }
  }

  /** The solvers used, joined by '+' (e.g. "cpu.steps+cpu.jacobi"; "none" when graph algorithms sufficed). */
  public String solver() {
    long p = acquireShared();
    try {
      return Strings.decode(Native.resultSolver(p));
    } finally {
      releaseShared();
    }
  }

  /**
   * With {@link Options#exact(boolean)}: the value in the first initial
   * state as a rational in lowest terms ("7/10", "3"; "Infinity" for an
   * infinite reward); null for a result not computed exactly.
   */
  public String exact() {
    long p = acquireShared();
    try {
      byte[] text = Native.resultExact(p);
      return text == null ? null : Strings.decode(text);
    } finally {
      releaseShared();
    }
  }

  /**
   * MDPs (Pmin/Pmax over F and U, Rmin/Rmax over F): an optimal memoryless
   * deterministic scheduler. Per state, the index of the optimal choice
   * among the state's choices (0-based, in file order), or -1 where every
   * choice is optimal.
   *
   * @throws PmcException with {@link Status#UNSUPPORTED} when the property has no scheduler
   */
  public long[] scheduler() {
    long p = acquireShared();
    try {
      return Native.resultScheduler(p);
    } finally {
      releaseShared();
    }
  }

  /**
   * Whether the result is certified: in every state the exact value lies
   * within {@link #bounds()} / {@link #boundValues()} (up to floating-point
   * rounding). Unbounded properties are certified by sound solvers (interval
   * iteration, the default), bounded and CTMC time-bounded ones by
   * construction, steady-state and long-run values by exact or bounded
   * bottom-SCC solves; results of unsound solvers (e.g. "cpu.gauss-seidel"
   * on a linear system) are not. A certified result that did
   * not {@link #converged() converge} has valid but wider bounds.
   */
  public boolean isSound() {
    long p = acquireShared();
    try {
      return Native.resultSound(p);
    } finally {
      releaseShared();
    }
  }

  /**
   * Certified bounds in the first initial state ({@link #initialValue()} is
   * their midpoint for unbounded properties); null when the result is not
   * {@link #isSound() sound}.
   */
  public Bounds bounds() {
    long p = acquireShared();
    try {
      double[] b = Native.resultBounds(p);
      return b == null ? null : new Bounds(b[0], b[1]);
    } finally {
      releaseShared();
    }
  }

  /**
   * Certified bounds in every state (new arrays, one entry per state each);
   * null when the result is not {@link #isSound() sound}.
   */
  public BoundValues boundValues() {
    long p = acquireShared();
    try {
      double[][] b = Native.resultBoundValues(p);
      return b == null ? null : new BoundValues(b[0], b[1]);
    } finally {
      releaseShared();
    }
  }

  /** Wall-clock seconds of the whole check. */
  public double seconds() {
    long p = acquireShared();
    try {
      return Native.resultSeconds(p);
    } finally {
      releaseShared();
    }
  }

  /** The check's seconds by phase. */
  public Timings timings() {
    long p = acquireShared();
    try {
      double[] t = Native.resultTimings(p);
      return new Timings(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]);
    } finally {
      releaseShared();
    }
  }
}
