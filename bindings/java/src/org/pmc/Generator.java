package org.pmc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A model described by a {@link StateExpander} instead of a file
 * ({@code pmc_generator}): pmc explores the states reachable from the
 * initial states, numbers them and builds the {@link Model}, as PRISM's
 * {@code ModelGenerator}. A state is a byte string of at most
 * {@code maxStateSize} bytes; two states are the same state when their
 * bytes are equal. The model keeps each state's bytes
 * ({@link Model#stateBytes}, {@link Model#findState},
 * {@link Result#valueOf}), so results map back to the caller's states.
 *
 * <pre>{@code
 * try (Generator g = new Generator(ModelType.DTMC, 1, (state, e) -> {
 *        int x = state[0];
 *        if (x > 0 && x < 10) {
 *          e.choice("bet").transition(0.4, x + 1).transition(0.6, x - 1);
 *        } else {
 *          e.transition(1, state).label("done");
 *        }
 *      }).fixedSize(true).initialState(5)) {
 *   g.addLabel("done");
 *   try (Model model = g.explore()) { ... }
 * }
 * }</pre>
 *
 * <p>The model is built as a PRISM-language source's is: labels "init" and
 * "deadlock" first, then the generator's labels in the order added; a state
 * without transitions gets a self-loop and a warning (an error with
 * {@link Options#strict}).
 *
 * <p>Thread safety: the setters and declarations need exclusive access, so
 * they wait for an exploration in progress; explorations of one generator
 * take turns (make one generator per thread to explore at once). A
 * {@link #threadSafe(boolean) thread-safe} generator's expander runs on
 * several threads of one exploration ({@link Options#threads}). Owns native
 * memory: close it (try-with-resources).
 */
public final class Generator extends NativeHandle {
  private final StateExpander expander;
  private final ReentrantLock exploreLock = new ReentrantLock();
  /** Written under the exclusive lock, read under the shared lock. */
  private final Map<String, Integer> labelIds = new HashMap<>();
  private final Map<String, Integer> rewardIds = new HashMap<>();

  /**
   * A generator of a model of {@code type} whose states have at most
   * {@code maxStateSize} bytes, expanded by {@code expander}. Defaults:
   * states of any size up to maxStateSize, not thread-safe,
   * {@link StateOrder#BYTES}, no initial state, no labels or rewards.
   *
   * @param type DTMC, CTMC or MDP
   * @param maxStateSize 1 to 4096
   * @throws PmcException UNSUPPORTED for a parametric CTMC, INVALID_ARGUMENT
   *     for a size out of range
   */
  public Generator(ModelType type, int maxStateSize, StateExpander expander) {
    super(create(type, maxStateSize, expander), Native::generatorFree);
    this.expander = expander;
  }

  private static long create(ModelType type, int maxStateSize, StateExpander expander) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(expander, "expander");
    Native.checkNotInListener();
    return Native.generatorCreate(type.code(), maxStateSize);
  }

  @Override
  String kind() {
    return "Generator";
  }

  /**
   * true: every state has exactly maxStateSize bytes (an initial state or
   * target of another size is an error naming it). Default false.
   */
  public Generator fixedSize(boolean fixed) {
    long p = acquireExclusive();
    try {
      Native.generatorSetFixedSize(p, fixed);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * true: the expander may run on several threads at once (those of
   * {@link Options#threads}; 0, the default, means every core); it must
   * then be safe for that. Default false: one thread calls it at a time.
   */
  public Generator threadSafe(boolean threadSafe) {
    long p = acquireExclusive();
    try {
      Native.generatorSetThreadSafe(p, threadSafe);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /** How the explored states are numbered; default {@link StateOrder#BYTES}. */
  public Generator order(StateOrder order) {
    Objects.requireNonNull(order, "order");
    long p = acquireExclusive();
    try {
      Native.generatorSetOrder(p, order.code());
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * Adds an initial state (copied). At least one is needed; adding a state
   * twice is allowed (it is one state).
   *
   * @throws PmcException INVALID_ARGUMENT for a state longer than
   *     maxStateSize (or of another size when fixed)
   */
  public Generator initialState(byte[] state) {
    Objects.requireNonNull(state, "state");
    long p = acquireExclusive();
    try {
      Native.generatorAddInitialState(p, state);
    } finally {
      releaseExclusive();
    }
    return this;
  }

  /**
   * {@link #initialState(byte[])} with the state given as unsigned byte
   * values, one per argument: {@code initialState(0, 0)}.
   *
   * @throws IllegalArgumentException for a value outside [0, 255]
   */
  public Generator initialState(int... state) {
    return initialState(toBytes(state, "state"));
  }

  /**
   * Declares a label and returns its index (0, 1, 2, ... in the order
   * added) for {@link Expansion#label(int)}, which also takes the name.
   *
   * @throws PmcException INVALID_ARGUMENT for a name declared already,
   *     "init", "deadlock", or a name a properties file could not write
   *     (empty, a double quote, a control character, blanks at an end)
   */
  public int addLabel(String name) {
    byte[] n = Strings.encode(name, "name");
    long p = acquireExclusive();
    try {
      int index = Math.toIntExact(Native.generatorAddLabel(p, n));
      labelIds.put(name, index);
      return index;
    } finally {
      releaseExclusive();
    }
  }

  /**
   * Declares a reward structure ("" for PRISM's unnamed one) and returns its
   * index for the {@link Expansion}'s reward methods, which also take the
   * name.
   *
   * @throws PmcException INVALID_ARGUMENT for a name declared already
   */
  public int addRewards(String name) {
    byte[] n = Strings.encode(name, "name");
    long p = acquireExclusive();
    try {
      int index = Math.toIntExact(Native.generatorAddRewards(p, n));
      rewardIds.put(name, index);
      return index;
    } finally {
      releaseExclusive();
    }
  }

  /** The labels declared, in order. */
  public List<String> labels() {
    acquireShared();
    try {
      return names(labelIds);
    } finally {
      releaseShared();
    }
  }

  /** The reward structures declared, in order. */
  public List<String> rewards() {
    acquireShared();
    try {
      return names(rewardIds);
    } finally {
      releaseShared();
    }
  }

  private static List<String> names(Map<String, Integer> ids) {
    List<String> out = new ArrayList<>(ids.keySet());
    out.sort((a, b) -> Integer.compare(ids.get(a), ids.get(b)));
    return List.copyOf(out);
  }

  /** {@link #explore(Options)} with default options. */
  public Model explore() {
    return explore(null);
  }

  /**
   * Explores the states reachable from the initial states and builds the
   * model ({@code pmc_model_explore}).
   *
   * @param options used: {@link Options#threads} (for a thread-safe
   *     generator), {@link Options#strict} (a state without transitions is
   *     an error), {@link Options#rowSumTolerance}, {@link Options#maxStates},
   *     {@link Options#memoryLimit}, and {@link Options#cancel()}; null
   *     means defaults
   * @return the model, which the caller must close
   * @throws PmcException naming the state by its bytes where there is one:
   *     MODEL when the expander threw (the exception is the cause; an
   *     {@link OutOfMemoryError} gives OUT_OF_MEMORY and an
   *     {@link InterruptedException} CANCELLED instead) or
   *     called {@link Expansion#fail}, probabilities do not sum to 1, a
   *     target has the wrong size, a choice has no transitions, there are
   *     more than maxStates states; INVALID_ARGUMENT (no initial state, a
   *     bad value given to the Expansion); OUT_OF_MEMORY; CANCELLED
   */
  public Model explore(Options options) {
    Native.checkNotInListener();
    exploreLock.lock();
    try {
      long p = acquireShared();
      try {
        Exploration exploration = new Exploration(expander, Map.copyOf(labelIds), Map.copyOf(rewardIds));
        long model;
        try {
          if (options == null) {
            model = Native.generatorExplore(p, 0, exploration);
          } else {
            long o = options.acquireShared();
            try {
              model = Native.generatorExplore(p, o, exploration);
            } finally {
              options.releaseShared();
            }
          }
        } catch (PmcException e) {
          Throwable cause = exploration.failure.get();
          if (cause != null) {
            e.initCause(cause);
          }
          throw e;
        }
        return new Model(model);
      } finally {
        releaseShared();
      }
    } finally {
      exploreLock.unlock();
    }
  }

  @Override
  public String toString() {
    if (isClosed()) {
      return "Generator[closed]";
    }
    try {
      return "Generator[labels " + labels() + ", rewards " + rewards() + "]";
    } catch (IllegalStateException e) {  // closed meanwhile, or called from a callback
      return super.toString();
    }
  }

  /** Unsigned byte values (0 to 255) as bytes. */
  static byte[] toBytes(int[] values, String what) {
    Objects.requireNonNull(values, what);
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; ++i) {
      if (values[i] < 0 || values[i] > 255) {
        throw new IllegalArgumentException(what + "[" + i + "] = " + values[i] + " is not a byte value (0 to 255)");
      }
      out[i] = (byte) values[i];
    }
    return out;
  }

  /**
   * One exploration: what the native trampoline calls for each state, and
   * the first exception an expand call threw. Final fields, so the pmc
   * threads that see this object see its maps.
   */
  static final class Exploration {
    /** What the trampoline returns to pmc for a failed expand call (pmc then reports PMC_ERROR_MODEL). */
    private static final int FAILED = -1;

    private final StateExpander expander;
    private final Map<String, Integer> labels;
    private final Map<String, Integer> rewards;
    final AtomicReference<Throwable> failure = new AtomicReference<>();

    Exploration(StateExpander expander, Map<String, Integer> labels, Map<String, Integer> rewards) {
      this.expander = expander;
      this.labels = labels;
      this.rewards = rewards;
    }

    /** Expands one state; called through Native.expand on a thread pmc chose. Returns 0 or FAILED. */
    int expand(byte[] state, long pointer) {
      Expansion expansion = new Expansion(pointer, labels, rewards);
      Native.enterExpander();
      try {
        expander.expand(state, expansion);
        return expansion.failed() ? FAILED : 0;
      } catch (Throwable t) {
        failed(t, pointer);
        // pmc reports these two statuses as the callback's own (an
        // allocation failure, an interrupt); any other non-zero as MODEL.
        if (t instanceof OutOfMemoryError) return Status.OUT_OF_MEMORY.code();
        if (t instanceof InterruptedException) return Status.CANCELLED.code();
        return FAILED;
      } finally {
        expansion.invalidate();
        Native.leaveExpander();
      }
    }

    /**
     * Records the expand call's exception (the first one of the
     * exploration becomes the PmcException's cause) and gives pmc its
     * description for the error message.
     */
    void failed(Throwable t, long pointer) {
      failure.compareAndSet(null, t);
      String text = String.valueOf(t).replace('\0', ' ');
      Native.expansionFail(pointer, Strings.encode(text, "message"));
    }
  }
}
