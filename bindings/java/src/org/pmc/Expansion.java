package org.pmc;

import java.util.Map;
import java.util.Objects;

/**
 * What a {@link StateExpander} writes one state's choices, transitions,
 * labels and rewards into ({@code pmc_expansion}). Methods return
 * {@code this}, so they chain:
 *
 * <pre>{@code
 * e.choice("east").transition(0.9, c + 1).transition(0.1, c).choiceReward("moves", 1);
 * }</pre>
 *
 * <p>Valid only during the {@code expand} call it was given to, and only on
 * that call's thread: afterwards, or from another thread, every method
 * throws {@link IllegalStateException}.
 *
 * <p>Labels and reward structures are named by the index that
 * {@link Generator#addLabel} / {@link Generator#addRewards} returned, or by
 * their name (an undeclared name throws {@link IllegalArgumentException}).
 * A value pmc rejects (a negative, NaN or infinite probability or reward, a
 * target longer than the generator's states, an unknown index, a reward
 * before any transition or choice) throws {@link PmcException} with
 * {@link Status#INVALID_ARGUMENT}; pmc remembers it, so the exploration
 * fails even if the expander catches it.
 */
public final class Expansion {
  /** The pmc_expansion*, 0 once the expand call returned. */
  private long pointer;
  private final Thread owner;
  private final Map<String, Integer> labels;
  private final Map<String, Integer> rewards;
  private boolean failed;

  Expansion(long pointer, Map<String, Integer> labels, Map<String, Integer> rewards) {
    this.pointer = pointer;
    this.owner = Thread.currentThread();
    this.labels = labels;
    this.rewards = rewards;
  }

  /** Ends the expansion's validity (by the expand call's thread, when it returns). */
  void invalidate() {
    pointer = 0;
  }

  /** Whether {@link #fail(String)} was called. */
  boolean failed() {
    return failed;
  }

  private long live() {
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException("an Expansion may only be used on the thread of the expand call it was given to");
    }
    if (pointer == 0) {
      throw new IllegalStateException("an Expansion is only valid during the expand call it was given to");
    }
    return pointer;
  }

  /**
   * Starts a new choice of the state, without an action. Transitions added
   * before any choice start one without an action, so a DTMC or CTMC needs
   * no call to this.
   */
  public Expansion choice() {
    Native.expansionAddChoice(live(), null);
    return this;
  }

  /**
   * Starts a new choice of the state named {@code action} (null or "" for
   * none). An MDP's choices are its rows, in the order given; a DTMC state
   * with several choices takes each with equal probability and a CTMC
   * state adds their rates. A DTMC's or CTMC's action names are kept, as a
   * PRISM-language source's are.
   */
  public Expansion choice(String action) {
    long p = live();
    Native.expansionAddChoice(p, action == null || action.isEmpty() ? null : Strings.encode(action, "action"));
    return this;
  }

  /**
   * Adds a transition of the current choice to the state {@code target}
   * (its bytes, copied) with probability (DTMC, MDP) or rate (CTMC)
   * {@code value}. A choice's probabilities must sum to 1 within the
   * row-sum tolerance ({@link Options#rowSumTolerance}); a value of 0 is
   * dropped; transitions of one choice to one target are added up.
   */
  public Expansion transition(double value, byte[] target) {
    Objects.requireNonNull(target, "target");
    Native.expansionAddTransition(live(), value, target);
    return this;
  }

  /**
   * {@link #transition(double, byte[])} with the target given as unsigned
   * byte values, one per argument: {@code transition(0.5, s + 1, d)}.
   *
   * @throws IllegalArgumentException for a value outside [0, 255]
   */
  public Expansion transition(double value, int... target) {
    return transition(value, Generator.toBytes(target, "target"));
  }

  /** Reward structure {@code rewards} (an index) earns {@code value} when the last transition added is taken. */
  public Expansion transitionReward(int rewards, double value) {
    Native.expansionSetReward(live(), Native.REWARD_TRANSITION, rewards, value);
    return this;
  }

  /** {@link #transitionReward(int, double)} by the reward structure's name. */
  public Expansion transitionReward(String rewards, double value) {
    return transitionReward(index(this.rewards, rewards, "reward structure", "addRewards"), value);
  }

  /** Reward structure {@code rewards} earns {@code value} whenever the current choice is taken (PRISM's {@code [a] guard : value}). */
  public Expansion choiceReward(int rewards, double value) {
    Native.expansionSetReward(live(), Native.REWARD_CHOICE, rewards, value);
    return this;
  }

  /** {@link #choiceReward(int, double)} by the reward structure's name. */
  public Expansion choiceReward(String rewards, double value) {
    return choiceReward(index(this.rewards, rewards, "reward structure", "addRewards"), value);
  }

  /** Reward structure {@code rewards} earns {@code value} in this state (per time unit in a CTMC). */
  public Expansion stateReward(int rewards, double value) {
    Native.expansionSetReward(live(), Native.REWARD_STATE, rewards, value);
    return this;
  }

  /** {@link #stateReward(int, double)} by the reward structure's name. */
  public Expansion stateReward(String rewards, double value) {
    return stateReward(index(this.rewards, rewards, "reward structure", "addRewards"), value);
  }

  /** The state satisfies label {@code label} (an index). */
  public Expansion label(int label) {
    Native.expansionSetLabel(live(), label);
    return this;
  }

  /** {@link #label(int)} by the label's name. */
  public Expansion label(String label) {
    return label(index(labels, label, "label", "addLabel"));
  }

  /**
   * Fails the exploration once the expander returns: {@link Generator#explore}
   * then throws {@link PmcException} with {@link Status#MODEL}, a message
   * holding {@code message} and the state's bytes, and no cause. (Throwing
   * an exception from the expander stops it too, with that exception as
   * the cause.)
   */
  public void fail(String message) {
    long p = live();
    Native.expansionFail(p, Strings.encode(Objects.requireNonNull(message, "message").replace('\0', ' '), "message"));
    failed = true;
  }

  private int index(Map<String, Integer> names, String name, String what, String declare) {
    live();
    Objects.requireNonNull(name, what);
    Integer index = names.get(name);
    if (index == null) {
      throw new IllegalArgumentException(
          "unknown " + what + " \"" + name + "\": declare it with Generator." + declare + "() before exploring");
    }
    return index;
  }

  @Override
  public String toString() {
    return pointer == 0 ? "Expansion[finished]" : "Expansion[active]";
  }
}
