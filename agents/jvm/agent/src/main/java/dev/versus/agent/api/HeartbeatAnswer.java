package dev.versus.agent.api;

import java.util.List;

/** What heartbeat answers; intervalSeconds is 0 when the server did not say. */
public record HeartbeatAnswer(List<String> cancelJobIds, boolean stop, int heartbeatIntervalSeconds) {}
