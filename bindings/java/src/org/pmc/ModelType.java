package org.pmc;

/** The kinds of model ({@code pmc_model_kind}). */
public enum ModelType {
  /** Discrete-time Markov chain. */
  DTMC(0),
  /** Continuous-time Markov chain. */
  CTMC(1),
  /** Markov decision process. */
  MDP(2),
  /** Continuous-time Markov chain with rates affine in parameters. */
  PCTMC(3);

  private final int code;

  ModelType(int code) {
    this.code = code;
  }

  /** The {@code pmc_model_kind} value. */
  public int code() {
    return code;
  }

  static ModelType fromCode(int code) {
    for (ModelType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    throw new IllegalStateException("pmc returned an unknown model type " + code);
  }
}
