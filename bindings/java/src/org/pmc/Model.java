package org.pmc;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An explicit-state Markov model ({@code pmc_model}): a DTMC, CTMC, MDP or
 * parametric CTMC, with labels (named state sets; "init" marks the initial
 * states) and reward structures. Loaded from files, built from a
 * PRISM-language source or CSR arrays, or explored from a
 * {@link Generator}. Owns native memory: close it (try-with-resources).
 *
 * <pre>{@code
 * try (Model model = Model.load(Path.of("consensus.tra"));
 *      Options options = new Options().solver("cpu.vi");
 *      Result result = model.check("Pmax=? [ F \"finished\" ]", options)) {
 *   System.out.println(result.initialValue());
 * }
 * }</pre>
 *
 * <p>Thread safety (pmc.h): models are immutable once built, so any number
 * of threads may query, save and {@link #check} one model at once.
 * {@link #addLabel} and {@link #addRewards} change the model and need
 * exclusive access: they wait for calls in progress on other threads, as
 * does {@link #close()}. After close() every method throws
 * {@link IllegalStateException}.
 */
public final class Model extends NativeHandle {
  /** Takes ownership of a pmc_model* (Generator.explore makes models too). */
  Model(long pointer) {
    super(pointer, Native::modelFree);
  }

  @Override
  String kind() {
    return "Model";
  }

  // ---- loading and building ---------------------------------------------

  /** Loads a model file, its format chosen by extension (.tra, .drn, .pmcb, optionally .gz). */
  public static Model load(Path path) {
    return load(path, null, null);
  }

  /** Same as {@link #load(Path)}. */
  public static Model load(String path) {
    return load(Path.of(Objects.requireNonNull(path, "path")), null, null);
  }

  /**
   * Loads a model file in the given format: "prism" (PRISM explicit .tra,
   * with the .lab, .srew, .trew and .sta files of the same stem), "prism-dtmc",
   * "prism-ctmc", "prism-mdp" (the same, forcing the type), "drn" (Storm)
   * or "pmcb" (pmc's binary format); null means by extension.
   */
  public static Model load(Path path, String format) {
    return load(path, format, null);
  }

  /** Like {@link #load(Path, String)}, with loading options ({@link Options#strict}, row-sum tolerance); null means defaults. */
  public static Model load(Path path, String format, Options options) {
    return loadFiles(List.of(Objects.requireNonNull(path, "path")), format, options);
  }

  /**
   * Builds a model from a PRISM-language source (.pm, .sm, .nm, .prism), or
   * a JANI model (.jani), by exploring its reachable states as PRISM does
   * ({@code pmc_model_build_prism}).
   *
   * @param path the source file
   * @param constants values of the constants the source leaves undefined,
   *     "K=2,N=4"; null or "" when it defines them all
   * @param options strictness, threads, {@link Options#maxStates}; null means defaults
   * @throws PmcException PARSE with file:line:column or the undefined
   *     constants and how to set them, INVALID_ARGUMENT for malformed or
   *     unknown constants, MODEL for an invalid model or too many states, IO
   */
  public static Model buildPrism(Path path, String constants, Options options) {
    byte[] file = Strings.encode(Objects.requireNonNull(path, "path").toString(), "path");
    byte[] values = Strings.encodeOptional(constants, "constants");
    Native.checkNotInListener();
    if (options == null) {
      return new Model(Native.modelBuildPrism(file, values, 0));
    }
    long o = options.acquireShared();
    long model;
    try {
      model = Native.modelBuildPrism(file, values, o);
    } finally {
      options.releaseShared();
    }
    return new Model(model);
  }

  /** {@link #buildPrism(Path, String, Options)} with default options. */
  public static Model buildPrism(Path path, String constants) {
    return buildPrism(path, constants, null);
  }

  /**
   * Loads a model from several files: for PRISM explicit, the .tra plus any
   * of .lab, .srew, .trew, .sta (instead of the siblings found by stem).
   */
  public static Model loadFiles(List<Path> paths, String format, Options options) {
    Objects.requireNonNull(paths, "paths");
    byte[][] files = new byte[paths.size()][];
    for (int i = 0; i < files.length; ++i) {
      files[i] = Strings.encode(Objects.requireNonNull(paths.get(i), "path").toString(), "path");
    }
    byte[] fmt = Strings.encodeOptional(format, "format");
    Native.checkNotInListener();
    if (options == null) {
      return new Model(Native.modelLoad(files, fmt, 0));
    }
    long o = options.acquireShared();
    long model;
    try {
      model = Native.modelLoad(files, fmt, o);
    } finally {
      options.releaseShared();
    }
    return new Model(model);
  }

  /**
   * Builds a model from CSR arrays (copied), as {@code pmc_model_build_csr}.
   *
   * @param type DTMC, CTMC or MDP
   * @param numStates the number of states
   * @param rowGroups MDP: numStates + 1 entries, the first row (choice) of
   *     each state; DTMC/CTMC: null (one row per state)
   * @param rowOffsets numRows + 1 entries; row r holds entries
   *     [rowOffsets[r], rowOffsets[r+1]); its last entry must equal the
   *     length of {@code columns} and {@code values}
   * @param columns target state of each entry
   * @param values probability (DTMC, MDP) or rate (CTMC) of each entry
   * @param options building options (strictness, row-sum tolerance), or null
   * @throws IllegalArgumentException when the array lengths do not fit together
   * @throws PmcException when the arrays do not form a valid model
   */
  public static Model fromCsr(ModelType type, long numStates, long[] rowGroups, long[] rowOffsets, long[] columns,
                              double[] values, Options options) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(rowOffsets, "rowOffsets");
    Objects.requireNonNull(columns, "columns");
    Objects.requireNonNull(values, "values");
    if (type == ModelType.PCTMC) {
      throw new IllegalArgumentException("fromCsr builds DTMCs, CTMCs and MDPs, not parametric CTMCs");
    }
    if (numStates <= 0) {
      throw new IllegalArgumentException("numStates must be positive (got " + numStates + ")");
    }
    if (type == ModelType.MDP) {
      Objects.requireNonNull(rowGroups, "rowGroups (needed for an MDP)");
      if (rowGroups.length - 1L != numStates) {
        throw new IllegalArgumentException(
            "rowGroups has " + rowGroups.length + " entries; an MDP with " + numStates + " states needs "
            + (numStates + 1));
      }
    } else if (rowGroups != null) {
      throw new IllegalArgumentException("rowGroups must be null for a " + type + " (one row per state)");
    }
    if (rowOffsets.length == 0) {
      throw new IllegalArgumentException("rowOffsets must have numRows + 1 entries (got none)");
    }
    // pmc reads rowOffsets[numRows] entries from columns and values: they
    // must exist, or pmc would read past the Java arrays.
    long entries = rowOffsets[rowOffsets.length - 1];
    if (entries != columns.length || entries != values.length) {
      throw new IllegalArgumentException("the last row offset (" + entries + ") must equal the lengths of columns ("
                                         + columns.length + ") and values (" + values.length + ")");
    }
    Native.checkNotInListener();
    if (options == null) {
      return new Model(Native.modelBuildCsr(type.code(), numStates, rowGroups, rowOffsets, columns, values, 0));
    }
    long o = options.acquireShared();
    long model;
    try {
      model = Native.modelBuildCsr(type.code(), numStates, rowGroups, rowOffsets, columns, values, o);
    } finally {
      options.releaseShared();
    }
    return new Model(model);
  }

  /** {@link #fromCsr(ModelType, long, long[], long[], long[], double[], Options)} with default options. */
  public static Model fromCsr(ModelType type, long numStates, long[] rowGroups, long[] rowOffsets, long[] columns,
                              double[] values) {
    return fromCsr(type, numStates, rowGroups, rowOffsets, columns, values, null);
  }

  /**
   * Adds a label (a named state set; "init" marks the initial states).
   * Duplicate states are allowed. Needs exclusive access.
   */
  public void addLabel(String name, long... states) {
    byte[] n = Strings.encode(name, "name");
    Objects.requireNonNull(states, "states");
    long p = acquireExclusive();
    try {
      Native.modelAddLabel(p, n, states);
    } finally {
      releaseExclusive();
    }
  }

  /**
   * Adds a reward structure ("" for an unnamed one). Each array may be null,
   * but not all three:
   *
   * @param stateRewards numStates values, earned per state (per time unit in a CTMC)
   * @param choiceRewards numChoices values, earned when the row (DTMC/CTMC state, MDP choice) is taken
   * @param transitionRewards numTransitions values in matrix-entry order (rows sorted by column)
   * @throws IllegalArgumentException when an array has the wrong length
   */
  public void addRewards(String name, double[] stateRewards, double[] choiceRewards, double[] transitionRewards) {
    byte[] n = Strings.encode(name, "name");
    long p = acquireExclusive();
    try {
      Native.modelAddRewards(p, n, stateRewards, choiceRewards, transitionRewards);
    } finally {
      releaseExclusive();
    }
  }

  /**
   * Writes the model, in the format of the extension (.pmcb, .drn, .tra; a
   * .gz suffix compresses text formats). PRISM explicit output writes the
   * .lab/.srew/.trew siblings too.
   */
  public void save(Path path) {
    save(path, null);
  }

  /** Writes the model in {@code format} (as for {@link #load(Path, String)}; null: by extension). */
  public void save(Path path, String format) {
    byte[] file = Strings.encode(Objects.requireNonNull(path, "path").toString(), "path");
    byte[] fmt = Strings.encodeOptional(format, "format");
    long p = acquireShared();
    try {
      Native.modelSave(p, file, fmt);
    } finally {
      releaseShared();
    }
  }

  /**
   * Frees the model's GPU-resident copies. A GPU check copies the matrix to
   * the device once and keeps the copy on the model for later checks until
   * the model is closed; this gives the device memory back sooner (the next
   * GPU check copies again). Fine when there are none and without CUDA.
   * Thread-safe beside checks of the same model: a check in flight keeps its
   * copy until it finishes.
   */
  public void releaseDevice() {
    long p = acquireShared();
    try {
      Native.modelReleaseDevice(p);
    } finally {
      releaseShared();
    }
  }

  // ---- queries ------------------------------------------------------------

  public ModelType type() {
    long p = acquireShared();
    try {
      return ModelType.fromCode(Native.modelType(p));
    } finally {
      releaseShared();
    }
  }

  public long numStates() {
    return count(Native.COUNT_STATES);
  }

  /** Rows of the matrix: choices of an MDP, states otherwise. */
  public long numChoices() {
    return count(Native.COUNT_CHOICES);
  }

  /** Non-zero matrix entries. */
  public long numTransitions() {
    return count(Native.COUNT_TRANSITIONS);
  }

  /** Label names, in the order they were loaded or added. */
  public List<String> labels() {
    return names(Native.COUNT_LABELS);
  }

  /**
   * The states of a label, ascending.
   *
   * @throws PmcException for an unknown label
   */
  public long[] labelStates(String name) {
    byte[] n = Strings.encode(name, "name");
    long p = acquireShared();
    try {
      return Native.modelLabelStates(p, n);
    } finally {
      releaseShared();
    }
  }

  /** Reward structure names ("" for an unnamed one). */
  public List<String> rewards() {
    return names(Native.COUNT_REWARDS);
  }

  /** Parameter names of a parametric CTMC (empty for other models). */
  public List<String> parameters() {
    return names(Native.COUNT_PARAMETERS);
  }

  /** Warnings raised while loading or building (deadlocks fixed, zero entries dropped, ...). */
  public List<String> warnings() {
    return names(Native.COUNT_WARNINGS);
  }

  /**
   * The bytes of state {@code state} (an index) of a model explored from a
   * {@link Generator} (a new array on each call). Thread-safe.
   *
   * @throws PmcException UNSUPPORTED for a model without state bytes
   *     (loaded or built otherwise), INVALID_ARGUMENT for an index out of range
   */
  public byte[] stateBytes(long state) {
    long p = acquireShared();
    try {
      return Native.modelStateBytes(p, state);
    } finally {
      releaseShared();
    }
  }

  /**
   * The index of the state whose bytes are {@code state}, in a model
   * explored from a {@link Generator}: e.g. to read its value from
   * {@link Result#values()} or its choice from {@link Result#scheduler()}.
   * The first call builds an index (4 bytes a state), kept with the model.
   * Thread-safe.
   *
   * @throws PmcException INVALID_ARGUMENT when no state has these bytes,
   *     UNSUPPORTED for a model without state bytes
   */
  public long findState(byte[] state) {
    Objects.requireNonNull(state, "state");
    long p = acquireShared();
    try {
      return Native.modelFindState(p, state);
    } finally {
      releaseShared();
    }
  }

  /**
   * {@link #findState(byte[])} with the state given as unsigned byte
   * values, one per argument: {@code findState(7, 6)}.
   *
   * @throws IllegalArgumentException for a value outside [0, 255]
   */
  public long findState(int... state) {
    return findState(Generator.toBytes(state, "state"));
  }

  // ---- checking -----------------------------------------------------------

  /** {@link #check(String, Options)} with default options. */
  public Result check(String property) {
    return check(property, null);
  }

  /**
   * Checks one property in PRISM syntax, e.g. {@code P=? [ F "goal" ]},
   * {@code R{"time"}=? [ C<=10 ]}, {@code S=? [ "up" ]}. Safe to call from
   * several threads at once on one model, with the same options or not.
   *
   * @param options solver settings, or null for defaults
   * @return the result, which the caller must close
   * @throws NotConvergedException when an iteration limit was reached (it carries the result)
   * @throws PmcException on a malformed or unfit property ({@link Status#PROPERTY}), a
   *     cancelled check ({@link Status#CANCELLED}), ...
   */
  public Result check(String property, Options options) {
    byte[] prop = Strings.encode(property, "property");
    byte[][] notConverged = new byte[1][];
    long result;
    long m = acquireShared();
    try {
      if (options == null) {
        result = Native.check(m, prop, 0, null, notConverged);
      } else {
        long o = options.acquireShared();
        try {
          result = Native.check(m, prop, o, options.listenerLocked(), notConverged);
        } finally {
          options.releaseShared();
        }
      }
    } finally {
      releaseShared();
    }
    Result r = new Result(result);
    if (notConverged[0] != null) {
      throw new NotConvergedException(Pmc.statusName(Status.NOT_CONVERGED), Strings.decode(notConverged[0]), r);
    }
    return r;
  }

  @Override
  public String toString() {
    if (isClosed()) {
      return "Model[closed]";
    }
    try {
      return "Model[" + type() + ", " + numStates() + " states, " + numTransitions() + " transitions]";
    } catch (IllegalStateException e) {  // closed meanwhile, or called from a listener
      return super.toString();
    }
  }

  private long count(int what) {
    long p = acquireShared();
    try {
      return Native.modelCount(p, what);
    } finally {
      releaseShared();
    }
  }

  private List<String> names(int what) {
    long p = acquireShared();
    try {
      long n = Native.modelCount(p, what);
      List<String> out = new ArrayList<>((int) Math.min(n, 1024));
      for (long i = 0; i < n; ++i) {
        out.add(Strings.decode(Native.modelName(p, what, i)));
      }
      return List.copyOf(out);
    } finally {
      releaseShared();
    }
  }
}
