package org.pmc;

/** The failure statuses of pmc.h ({@code pmc_status}, without {@code PMC_OK}). */
public enum Status {
  /** NULL handle, bad option value, ... */
  INVALID_ARGUMENT(1),
  /** A file cannot be opened or written. */
  IO(2),
  /** Malformed file or text. */
  PARSE(3),
  /** The data do not form a valid model. */
  MODEL(4),
  /** Malformed property, or unfit for the model. */
  PROPERTY(5),
  /** Valid, but not supported by pmc. */
  UNSUPPORTED(6),
  OUT_OF_MEMORY(7),
  /** No usable GPU (or pmc built without CUDA). */
  NO_DEVICE(8),
  /** A GPU operation failed. */
  DEVICE(9),
  /** The iteration limit was reached (see {@link NotConvergedException}). */
  NOT_CONVERGED(10),
  /** Stopped by {@link Options#cancel()}. */
  CANCELLED(11),
  /** A bug in pmc: please report it. */
  INTERNAL(12),
  /** A status code this version of the bindings does not know (see {@link PmcException#code()}). */
  UNKNOWN(-1);

  private final int code;

  Status(int code) {
    this.code = code;
  }

  /** The numeric {@code pmc_status} value ({@code -1} for {@link #UNKNOWN}). */
  public int code() {
    return code;
  }

  /** The status with this {@code pmc_status} value, or {@link #UNKNOWN}. */
  public static Status fromCode(int code) {
    for (Status s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    return UNKNOWN;
  }
}
