package org.pmc;

/** How the states of a model explored from a {@link Generator} are numbered ({@code pmc_state_order}). */
public enum StateOrder {
  /**
   * Ascending by bytes (unsigned, a shorter state before the longer ones it
   * begins). The default: deterministic whatever the threads, and PRISM's
   * order when each state holds the variables of a PRISM program in
   * declaration order, each as a big-endian unsigned number of its value
   * minus the variable's lower bound (one byte for up to 256 values).
   */
  BYTES(0),
  /**
   * Breadth-first: the initial states in the order added, then each
   * state's new successors in the order the expander gave them, as a
   * one-threaded breadth-first search finds them (also with several
   * threads).
   */
  BFS(1);

  private final int code;

  StateOrder(int code) {
    this.code = code;
  }

  /** The {@code pmc_state_order} value. */
  public int code() {
    return code;
  }
}
