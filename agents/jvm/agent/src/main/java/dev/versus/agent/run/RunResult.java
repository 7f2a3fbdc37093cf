package dev.versus.agent.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A finished run: the run document (one run of POST /api/v1/results without variant and
 * repetition: startedAt, finishedAt, environment, metrics), caveats a reader must see, and the
 * last lines of the run's log.
 */
public record RunResult(ObjectNode run, List<String> warnings, String logTail) {}
