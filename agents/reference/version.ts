/** Sent in register and heartbeat, and in every request's User-Agent. */
export const AGENT_VERSION = "0.1.0";
