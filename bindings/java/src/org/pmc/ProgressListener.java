package org.pmc;

/**
 * Receives progress of long solves (see {@link Options#progressListener}).
 *
 * <p>pmc calls it on the thread that runs {@link Model#check}, at most
 * every 0.2 s of a solve, and never for a solve shorter than that. It must
 * return quickly and must not call pmc: the only pmc method it may use is
 * {@link Options#cancel()} (any other throws {@link IllegalStateException}).
 * An exception it throws does not stop the check; it propagates out of
 * {@code check()} when the check ends, and the check's later progress calls
 * are skipped. To stop the check, call {@link Options#cancel()}.
 */
@FunctionalInterface
public interface ProgressListener {
  /**
   * @param solver the solver's name, e.g. "cpu.jacobi"
   * @param iteration iterations done so far in the current solve
   * @param residual the convergence test's quantity of the last iteration
   *     (relative or absolute as set; NaN for solvers without one)
   * @param seconds time since the solve began
   */
  void onProgress(String solver, long iteration, double residual, double seconds);
}
