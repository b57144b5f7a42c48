package org.pmc;

/**
 * A pmc call failed: carries pmc's status code and the message of
 * {@code pmc_last_error()} (what went wrong and where: file, line, column,
 * state), read on the failing thread right after the call.
 *
 * <p>Unchecked, as java.time's {@code DateTimeException} or
 * {@code UncheckedIOException}: pmc calls fail on bad input (a malformed
 * file or property) that the immediate caller can rarely repair, so a
 * checked exception would be declared or wrapped at every level and would
 * keep pmc out of lambdas and streams. Callers that can act on a failure
 * catch this type and look at {@link #status()}.
 *
 * <p>Errors found by the bindings themselves before calling pmc use the
 * standard exceptions: {@link NullPointerException},
 * {@link IllegalArgumentException} (arrays of the wrong length, a string
 * with a NUL character) and {@link IllegalStateException} (a closed
 * handle).
 */
public class PmcException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String pmcMessage;

  /**
   * @param code the {@code pmc_status} value
   * @param statusName pmc's English name of the status ({@code pmc_status_string})
   * @param pmcMessage pmc's message ({@code pmc_last_error})
   */
  public PmcException(int code, String statusName, String pmcMessage) {
    super(statusName + ": " + pmcMessage);
    this.code = code;
    this.pmcMessage = pmcMessage;
  }

  /** The raw {@code pmc_status} value. */
  public int code() {
    return code;
  }

  /** The status, or {@link Status#UNKNOWN} for a code these bindings do not know. */
  public Status status() {
    return Status.fromCode(code);
  }

  /** pmc's message alone, without the status name that {@link #getMessage()} starts with. */
  public String pmcMessage() {
    return pmcMessage;
  }

  /** Called by the native library to build the exception it throws. */
  @SuppressWarnings("unused")
  private static PmcException fromNative(int code, byte[] statusName, byte[] message) {
    return new PmcException(code, Strings.decode(statusName), Strings.decode(message));
  }
}
