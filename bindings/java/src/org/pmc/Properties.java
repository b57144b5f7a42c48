package org.pmc;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * The properties of a properties file (PRISM's .props/.pctl layout), read
 * by libpmc ({@code pmc_properties_*}) exactly as {@code pmc check
 * --property-file} reads them: comments, {@code const}, {@code formula} and
 * {@code label} declarations put into the properties that use them,
 * {@code "name": P=? [...]} names.
 *
 * <pre>{@code
 * for (Properties.Entry p : Properties.read(Path.of("consensus.props"), "K=2")) {
 *   System.out.println(p.name() + ": " + model.check(p.text()).initialValue());
 * }
 * }</pre>
 *
 * <p>The properties are copied into Java when read: an instance holds no
 * native handle, needs no closing, is immutable and may be shared between
 * threads.
 */
public final class Properties implements Iterable<Properties.Entry> {
  /**
   * One property: its name ("" when unnamed), its text with the file's constants
   * put in (ready for {@link Model#check(String)}) and the line it starts on.
   */
  public record Entry(String name, String text, long line) {}

  private final List<Entry> entries;

  private Properties(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /** Reads the properties file at {@code path}; see {@link #read(Path, String)}. */
  public static Properties read(Path path) {
    return read(path, null);
  }

  /**
   * Reads the properties file at {@code path}.
   *
   * @param constants values of the constants the file declares without one
   *     ({@code const int N;}), "N=3,K=2"; null when there are none
   * @throws PmcException IO when the file cannot be read, PARSE (message
   *     "FILE:LINE: ...") when it is malformed or a property uses a constant
   *     without a value, INVALID_ARGUMENT for malformed constants
   */
  public static Properties read(Path path, String constants) {
    byte[] file = Strings.encode(Objects.requireNonNull(path, "path").toString(), "path");
    byte[] values = Strings.encodeOptional(constants, "constants");
    Native.checkNotInListener();
    return copy(Native.propertiesRead(file, values));
  }

  /**
   * Reads {@code text} as the contents of a properties file, as {@link #read(Path, String)}.
   *
   * @param sourceName names the text in messages; null means "&lt;text&gt;"
   */
  public static Properties parse(String text, String sourceName, String constants) {
    byte[] contents = Strings.encode(text, "text");
    byte[] name = Strings.encodeOptional(sourceName, "sourceName");
    byte[] values = Strings.encodeOptional(constants, "constants");
    Native.checkNotInListener();
    return copy(Native.propertiesParse(contents, name, values));
  }

  private static Properties copy(long handle) {
    try {
      long count = Native.propertiesCount(handle);
      List<Entry> entries = new ArrayList<>();
      for (long i = 0; i < count; ++i) {
        entries.add(new Entry(Strings.decode(Native.propertiesName(handle, i)),
                              Strings.decode(Native.propertiesText(handle, i)), Native.propertiesLine(handle, i)));
      }
      return new Properties(entries);
    } finally {
      Native.propertiesFree(handle);
    }
  }

  /** How many properties the file holds (at least 1). */
  public int size() {
    return entries.size();
  }

  /** Property {@code index}, in file order. */
  public Entry get(int index) {
    return entries.get(index);
  }

  /** Every property, in file order (an unmodifiable list). */
  public List<Entry> entries() {
    return entries;
  }

  @Override
  public Iterator<Entry> iterator() {
    return entries.iterator();
  }

  @Override
  public String toString() {
    return "Properties(" + entries.size() + " properties)";
  }
}
