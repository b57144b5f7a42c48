package org.pmc;

/**
 * Describes a model one state at a time, for a {@link Generator}: given a
 * state's bytes, writes its choices, transitions (with their targets'
 * bytes), labels and rewards into the {@link Expansion}.
 *
 * <pre>{@code
 * StateExpander gambler = (state, e) -> {
 *   int x = state[0];
 *   if (x > 0 && x < 10) {
 *     e.choice("bet").transition(0.4, x + 1).transition(0.6, x - 1);
 *   } else {
 *     e.transition(1, state).label("done");
 *   }
 * };
 * }</pre>
 *
 * <p>pmc calls it once per reachable state, and, unless the generator is
 * {@link Generator#threadSafe(boolean) thread-safe}, from one thread at a
 * time; the thread need not be the one that called
 * {@link Generator#explore}. It must not call pmc: the only pmc methods
 * it may use are those of its {@code Expansion} and {@link Options#cancel()}
 * (any other throws {@link IllegalStateException}).
 */
@FunctionalInterface
public interface StateExpander {
  /**
   * Expands one state.
   *
   * @param state the state's bytes (a new array on each call; Java bytes
   *     are signed: {@code state[i] & 0xFF} is the unsigned value)
   * @param expansion where to write the state's successors; valid only
   *     during this call and on this thread
   * @throws Exception any exception (or error) stops the exploration:
   *     {@link Generator#explore} then throws a {@link PmcException} whose
   *     cause is this exception and whose message names the state and
   *     describes the exception; its status is MODEL, but OUT_OF_MEMORY for
   *     an {@link OutOfMemoryError} and CANCELLED for an
   *     {@link InterruptedException}
   */
  void expand(byte[] state, Expansion expansion) throws Exception;
}
