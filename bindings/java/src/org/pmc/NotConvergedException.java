package org.pmc;

/**
 * A check reached its iteration limit ({@code PMC_ERROR_NOT_CONVERGED}).
 * It still carries the unconverged {@link Result}, which the catcher owns
 * and should close:
 *
 * <pre>{@code
 * try (Result r = model.check(property, options)) {
 *   ...
 * } catch (NotConvergedException e) {
 *   try (Result partial = e.result()) {
 *     System.err.println("not converged after " + partial.iterations() + " iterations");
 *   }
 * }
 * }</pre>
 */
public final class NotConvergedException extends PmcException {
  private static final long serialVersionUID = 1L;

  /** Not serialisable: a deserialised exception has no result. */
  private final transient Result result;

  NotConvergedException(String statusName, String pmcMessage, Result result) {
    super(Status.NOT_CONVERGED.code(), statusName, pmcMessage);
    this.result = result;
  }

  /** The unconverged values (null only after deserialisation). */
  public Result result() {
    return result;
  }
}
