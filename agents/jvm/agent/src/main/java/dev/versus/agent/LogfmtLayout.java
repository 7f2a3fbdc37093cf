package dev.versus.agent;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import java.util.Locale;
import java.util.regex.Pattern;
import org.slf4j.event.KeyValuePair;

/**
 * Renders a log event as one logfmt line, the shape the reference and Go agents write:
 * {@code ts=… level=info event=job.started job=… variant="Shared ObjectMapper"}. The event is the
 * message, its fields the key-value pairs of slf4j's fluent API in the order they were added
 * ({@code log.atInfo().setMessage("job.started").addKeyValue("job", id).log()}); a null value is
 * left out. Values with spaces, quotes or {@code =} are quoted. logback.xml sends the lines to
 * stdout (info) and stderr (warnings and errors).
 */
public final class LogfmtLayout extends LayoutBase<ILoggingEvent> {
  private static final Pattern NEEDS_QUOTES = Pattern.compile("[\\s\"=]");

  @Override
  public String doLayout(ILoggingEvent event) {
    StringBuilder line = new StringBuilder(160);
    line.append("ts=").append(event.getInstant())
        .append(" level=").append(event.getLevel().toString().toLowerCase(Locale.ROOT))
        .append(" event=").append(value(event.getFormattedMessage()));
    if (event.getKeyValuePairs() != null) {
      for (KeyValuePair field : event.getKeyValuePairs()) {
        if (field.value != null) line.append(' ').append(field.key).append('=').append(value(field.value));
      }
    }
    // Only a library's own log call carries a throwable; the agent's put theirs in a field.
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown != null) line.append(" error=").append(value(thrown.getClassName() + ": " + thrown.getMessage()));
    return line.append(CoreConstants.LINE_SEPARATOR).toString();
  }

  private static String value(Object value) {
    String text = String.valueOf(value);
    if (!text.isEmpty() && !NEEDS_QUOTES.matcher(text).find()) return text;
    StringBuilder quoted = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\r' -> quoted.append("\\r");
        case '\t' -> quoted.append("\\t");
        default -> quoted.append(c);
      }
    }
    return quoted.append('"').toString();
  }
}
