package dev.versus.agent.api;

/** What register answers: who the agent is, its credential, and the server's timings. */
public record Registration(
    String agentId, String name, String project, String credential, int heartbeatIntervalSeconds, int claimWaitSeconds, int leaseSeconds) {}
