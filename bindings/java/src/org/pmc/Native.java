package org.pmc;

/**
 * The JNI entry points (native/pmc_jni_*.c), one per pmc.h call or small group
 * of calls. Handles are the C pointers as {@code long}; strings cross as
 * NUL-free UTF-8 byte arrays, because JNI's own string functions speak
 * "modified UTF-8", which differs from the UTF-8 of pmc.h for U+0000 and for
 * characters outside the BMP. A failing pmc call throws {@link PmcException}
 * from the native side, with the calling thread's pmc_last_error() read
 * right after the call.
 *
 * <p>Callers guarantee that every handle passed in is live (the
 * {@link NativeHandle} locks); the native side never sees a freed pointer.
 */
final class Native {
  private Native() {}

  static {
    // -Dpmc.jni.library=/abs/path/libpmcjni.so overrides the search of
    // java.library.path (useful for tests and for embedding in a fat jar).
    String explicit = System.getProperty("pmc.jni.library");
    if (explicit != null && !explicit.isEmpty()) {
      System.load(explicit);
    } else {
      System.loadLibrary("pmcjni");
    }
  }

  /** Forces the class (and so the library) to load; used by static entry points. */
  static void ensureLoaded() {}

  // Selectors for modelCount / modelName; @Native puts them into the header
  // that javac -h writes for the C side (org_pmc_Native_COUNT_STATES, ...).
  @java.lang.annotation.Native static final int COUNT_STATES = 0;
  @java.lang.annotation.Native static final int COUNT_CHOICES = 1;
  @java.lang.annotation.Native static final int COUNT_TRANSITIONS = 2;
  @java.lang.annotation.Native static final int COUNT_LABELS = 3;
  @java.lang.annotation.Native static final int COUNT_REWARDS = 4;
  @java.lang.annotation.Native static final int COUNT_PARAMETERS = 5;
  @java.lang.annotation.Native static final int COUNT_WARNINGS = 6;

  // Selectors for expansionSetReward.
  @java.lang.annotation.Native static final int REWARD_STATE = 0;
  @java.lang.annotation.Native static final int REWARD_CHOICE = 1;
  @java.lang.annotation.Native static final int REWARD_TRANSITION = 2;

  // ---- library -----------------------------------------------------------
  static native byte[] version();
  static native int versionNumber();
  /** PMC_VERSION_NUMBER of the pmc.h the JNI library was compiled against. */
  static native int headerVersionNumber();
  static native byte[] statusString(int status);
  static native long solverCount();
  static native byte[] solverName(long index);
  /** 0 when pmc reports PMC_ERROR_NO_DEVICE. */
  static native long deviceCount();
  static native byte[] deviceName(long index);
  /** {free, total} bytes. */
  static native long[] deviceMemory(long index);
  /** {major, minor}. */
  static native int[] deviceComputeCapability(long index);

  // ---- properties files ---------------------------------------------------
  static native long propertiesRead(byte[] path, byte[] constants);
  static native long propertiesParse(byte[] text, byte[] sourceName, byte[] constants);
  static native void propertiesFree(long properties);
  static native long propertiesCount(long properties);
  static native byte[] propertiesName(long properties, long index);
  static native byte[] propertiesText(long properties, long index);
  static native long propertiesLine(long properties, long index);

  // ---- options -----------------------------------------------------------
  static native long optionsCreate();
  static native void optionsFree(long options);
  static native void optionsSetStrict(long options, boolean strict);
  static native void optionsSetRowSumTolerance(long options, double tolerance);
  static native void optionsSetSolver(long options, byte[] name);
  static native void optionsSetEpsilon(long options, double epsilon);
  static native void optionsSetRelative(long options, boolean relative);
  static native void optionsSetSound(long options, boolean sound);
  static native void optionsSetExact(long options, boolean exact);
  static native void optionsSetMaxIterations(long options, long maxIterations);
  static native void optionsSetThreads(long options, long threads);
  static native void optionsSetMaxStates(long options, long maxStates);

  static native void optionsSetBuild(long options, byte[] build);
  static native void optionsSetDevice(long options, long device);
  static native void optionsSetGpuMemoryLimit(long options, long bytes);
  static native void optionsSetMemoryLimit(long options, long bytes);
  static native void optionsSetDevices(long options, long[] devices);
  static native void optionsSetAllDevices(long options, boolean all);
  static native void optionsSetParameter(long options, byte[] name, double value);
  static native void optionsClearParameters(long options);

  static native void optionsSetConstants(long options, byte[] constants);
  static native void optionsRequestCancel(long options);
  static native void optionsResetCancel(long options);
  /** Installs (or removes) the C progress trampoline on the options. */
  static native void optionsSetProgress(long options, boolean enabled);

  // ---- models ------------------------------------------------------------
  static native long modelLoad(byte[][] paths, byte[] format, long options);
  static native long modelBuildPrism(byte[] path, byte[] constants, long options);
  static native long modelBuildCsr(int type, long numStates, long[] rowGroups, long[] rowOffsets, long[] columns,
                                   double[] values, long options);
  static native void modelAddLabel(long model, byte[] name, long[] states);
  static native void modelAddRewards(long model, byte[] name, double[] stateRewards, double[] choiceRewards,
                                     double[] transitionRewards);
  static native void modelSave(long model, byte[] path, byte[] format);
  static native void modelFree(long model);
  static native void modelReleaseDevice(long model);
  static native int modelType(long model);
  static native long modelCount(long model, int what);
  /** Name of label/reward/parameter/warning {@code index}; {@code what} is a COUNT_* selector. */
  static native byte[] modelName(long model, int what, long index);
  static native long[] modelLabelStates(long model, byte[] name);
  /** pmc_model_state_bytes: the bytes of state {@code state}. */
  static native byte[] modelStateBytes(long model, long state);
  /** pmc_model_find_state: the index of the state with these bytes. */
  static native long modelFindState(long model, byte[] state);

  // ---- generators (native/pmc_jni_generator.c) -----------------------------
  // A generator handle points to the glue's own struct, which holds the
  // pmc_generator and the exploration its callback serves.
  static native long generatorCreate(int type, long maxStateSize);
  static native void generatorFree(long generator);
  static native void generatorSetFixedSize(long generator, boolean fixed);
  static native void generatorSetThreadSafe(long generator, boolean threadSafe);
  static native void generatorSetOrder(long generator, int order);
  static native void generatorAddInitialState(long generator, byte[] state);
  /** Returns the label's index. */
  static native long generatorAddLabel(long generator, byte[] name);
  /** Returns the reward structure's index. */
  static native long generatorAddRewards(long generator, byte[] name);
  /**
   * pmc_model_explore: returns the model handle. The C callback calls
   * {@link #expand} with {@code exploration} for each state, on threads pmc
   * chooses (attached to the VM as daemon threads when they are not yet).
   */
  static native long generatorExplore(long generator, long options, Generator.Exploration exploration);
  // The pmc_expansion_* calls, on an expansion valid during the expand call.
  static native void expansionAddChoice(long expansion, byte[] action);
  static native void expansionAddTransition(long expansion, double value, byte[] target);
  /** {@code what}: a REWARD_* selector. */
  static native void expansionSetReward(long expansion, int what, long rewards, double value);
  static native void expansionSetLabel(long expansion, long label);
  static native void expansionFail(long expansion, byte[] message);

  // ---- checking ----------------------------------------------------------
  /**
   * pmc_check. Returns the result handle; when pmc reports
   * PMC_ERROR_NOT_CONVERGED it still returns the (unconverged) result and
   * stores pmc's message in {@code notConverged[0]}. Other failures throw.
   */
  static native long check(long model, byte[] property, long options, ProgressListener listener,
                           byte[][] notConverged);
  static native void resultFree(long result);
  static native double resultInitialValue(long result);
  /** Fills {@code minMax} = {min, max} and returns the number of initial states. */
  static native long resultInitialRange(long result, double[] minMax);
  static native double[] resultValues(long result);
  static native boolean resultIsBoolean(long result);
  static native long resultIterations(long result);
  static native boolean resultConverged(long result);
  static native byte[] resultSolver(long result);
  /** The exact value's text, or null for a result not computed exactly. */
  static native byte[] resultExact(long result);
  static native long[] resultScheduler(long result);
  static native boolean resultSound(long result);
  /** {lower, upper}, or null when the result is not sound. */
  static native double[] resultBounds(long result);
  /** {lower[], upper[]} (one entry per state each), or null when the result is not sound. */
  static native double[][] resultBoundValues(long result);
  static native double resultSeconds(long result);
  /** Seconds by pmc_phase: {load, gpu start-up, precompute, build, transfer, solve, other, total}. */
  static native double[] resultTimings(long result);

  // ---- progress and expand callbacks ----------------------------------------
  private static final ThreadLocal<int[]> LISTENER_DEPTH = ThreadLocal.withInitial(() -> new int[1]);
  private static final ThreadLocal<int[]> EXPANDER_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  /**
   * pmc.h forbids calling pmc (other than pmc_options_request_cancel and,
   * in an expand callback, the pmc_expansion_* calls) from a progress or
   * expand callback, and a callback that closed or changed a handle in use
   * by the call below it would deadlock on the handle's lock: every entry
   * point calls this first.
   */
  static void checkNotInListener() {
    if (LISTENER_DEPTH.get()[0] != 0) {
      throw new IllegalStateException(
          "pmc cannot be called from a ProgressListener (only Options.cancel() is allowed there)");
    }
    if (EXPANDER_DEPTH.get()[0] != 0) {
      throw new IllegalStateException("pmc cannot be called from a StateExpander (only the Expansion's methods "
                                      + "and Options.cancel() are allowed there)");
    }
  }

  static void enterExpander() {
    EXPANDER_DEPTH.get()[0]++;
  }

  static void leaveExpander() {
    EXPANDER_DEPTH.get()[0]--;
  }

  /**
   * Called from the C expand trampoline for each state, on a thread pmc
   * chose; returns 0, or non-zero to stop the exploration. Catches what the
   * expander throws.
   */
  @SuppressWarnings("unused")
  private static int expand(Generator.Exploration exploration, byte[] state, long expansion) {
    return exploration.expand(state, expansion);
  }

  /**
   * Called from the C expand trampoline when {@link #expand} itself threw
   * (an error while handling the expander's exception): records it as the
   * expander's failure.
   */
  @SuppressWarnings("unused")
  private static void expandFailed(Generator.Exploration exploration, Throwable failure, long expansion) {
    exploration.failed(failure, expansion);
  }

  /** Called from the C progress trampoline on the thread running the check. */
  @SuppressWarnings("unused")
  private static void progress(ProgressListener listener, byte[] solver, long iteration, double residual,
                               double seconds) {
    int[] depth = LISTENER_DEPTH.get();
    depth[0]++;
    try {
      listener.onProgress(Strings.decode(solver), iteration, residual, seconds);
    } finally {
      depth[0]--;
    }
  }
}
