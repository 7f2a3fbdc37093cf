package dev.versus.agent;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.AppenderBase;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.helpers.NOPLogger;

/**
 * Loggers for tests: each in a logback context of its own, so one test's lines never reach
 * another's, rendered by the agent's LogfmtLayout as the agent writes them.
 */
final class TestLogs {
  private TestLogs() {}

  /** A logger whose every line (without its line break) goes to sink. */
  static Logger to(Consumer<String> sink, TurboFilter... filters) {
    LoggerContext context = new LoggerContext();
    for (TurboFilter filter : filters) context.addTurboFilter(filter);
    LogfmtLayout layout = new LogfmtLayout();
    layout.setContext(context);
    layout.start();
    AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
      @Override
      protected void append(ILoggingEvent event) {
        sink.accept(layout.doLayout(event).stripTrailing());
      }
    };
    appender.setContext(context);
    appender.start();
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    return context.getLogger("test");
  }

  static Logger silent() {
    return NOPLogger.NOP_LOGGER;
  }
}
