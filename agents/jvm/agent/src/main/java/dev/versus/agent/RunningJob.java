package dev.versus.agent;

import dev.versus.agent.api.Job;

/** A job this agent is running: its lease and the switch that stops its workload. */
public final class RunningJob {
  /** Why a job was stopped from outside. */
  public static final String CANCELLED = "cancelled";
  public static final String LEASE_LOST = "lease-lost";
  public static final String SHUTDOWN = "shutdown";
  public static final String UNAUTHORIZED = "unauthorized";

  private final Job job;
  private final Signal stopped = new Signal();

  public RunningJob(Job job) {
    this.job = job;
  }

  public Job job() {
    return job;
  }

  public Signal stopped() {
    return stopped;
  }

  /** Stops the workload; the first reason wins (a cancel then a shutdown is still a cancel). */
  public void stop(String reason) {
    stopped.fire(reason);
  }
}
