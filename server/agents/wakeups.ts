// Wakes waiting claims when work appears, across every Versus process on one database: writers
// NOTIFY on a channel with the project's id as payload (delivered when their transaction
// commits), and each process keeps ONE dedicated connection LISTENing, which wakes the waiting
// claims of that project. A lost connection is re-opened with backoff; meanwhile, and always,
// waiting claims also look again every RECHECK_MS (expired leases and ended backoffs are never
// announced), so a missed notification costs at most that long.
import net from "node:net";
import pg from "pg";
import type { Db, Prisma } from "../db/client";
import { requiredEnv } from "../env";

export const JOBS_CHANNEL = "versus_jobs";

/** Announces new or returned work of `projectId`; inside a transaction, at its commit. */
export async function notifyWork(db: Db | Prisma.TransactionClient, projectId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${JOBS_CHANNEL}, ${projectId})`;
}

export type WakeReason = "woken" | "timeout" | "aborted";

export interface WorkSubscription {
  /** Resolves once work for the project was announced since subscribing, after `ms`, or on abort. */
  wait(ms: number, signal?: AbortSignal): Promise<WakeReason>;
  /** Stops listening; call it when done, whatever happened. */
  cancel(): void;
}

interface Waiter {
  woken: boolean;
  wake?: () => void;
}

export class JobWakeups {
  private client: pg.Client | undefined;
  private readonly waiters = new Map<string, Set<Waiter>>();
  private connecting: Promise<void> | undefined;
  private reconnectDelayMs = 500;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly databaseUrl: string) {}

  /**
   * Opens the LISTEN connection if it is not open. Resolves once it listens, or once the attempt
   * failed (a retry is then scheduled): callers never wait for the database to come back.
   */
  ready(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /**
   * Starts listening for work of `projectId`. Subscribe BEFORE looking for work: a notification
   * that arrives between the look and the wait is then not lost.
   */
  subscribe(projectId: string): WorkSubscription {
    const waiter: Waiter = { woken: false };
    let set = this.waiters.get(projectId);
    if (!set) this.waiters.set(projectId, (set = new Set()));
    set.add(waiter);
    const cancel = () => {
      set.delete(waiter);
      if (set.size === 0 && this.waiters.get(projectId) === set) this.waiters.delete(projectId);
    };
    const wait = (ms: number, signal?: AbortSignal) =>
      new Promise<WakeReason>((resolve) => {
        if (signal?.aborted) return resolve("aborted");
        if (waiter.woken) return resolve("woken");
        const finish = (reason: WakeReason) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          waiter.wake = undefined;
          resolve(reason);
        };
        const onAbort = () => finish("aborted");
        const timer = setTimeout(() => finish("timeout"), Math.max(0, ms));
        signal?.addEventListener("abort", onAbort, { once: true });
        waiter.wake = () => finish("woken");
      });
    return { wait, cancel };
  }

  /** Number of claims waiting now (for tests and diagnostics). */
  get waiting(): number {
    let count = 0;
    for (const set of this.waiters.values()) count += set.size;
    return count;
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private wakeProject(projectId: string) {
    for (const waiter of this.waiters.get(projectId) ?? []) {
      waiter.woken = true;
      waiter.wake?.();
    }
  }

  /** After a reconnect, notifications may have been missed: let every waiting claim look again. */
  private wakeAll() {
    for (const projectId of this.waiters.keys()) this.wakeProject(projectId);
  }

  private async connect(): Promise<void> {
    const socket = new net.Socket();
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: "versus job wakeups", stream: () => socket });
    client.on("notification", (message) => {
      if (message.channel === JOBS_CHANNEL && message.payload) this.wakeProject(message.payload);
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${JOBS_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      this.scheduleReconnect(error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    // Once listening, the connection must not keep the process alive: Next.js's graceful
    // shutdown waits for the event loop to empty, and would wait for this socket forever.
    socket.unref();
    const reconnected = this.reconnectDelayMs > 500;
    this.client = client;
    this.reconnectDelayMs = 500;
    if (reconnected) this.wakeAll();
  }

  private lost(client: pg.Client, error?: unknown) {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    if (!this.closed) this.scheduleReconnect(error);
  }

  private scheduleReconnect(error: unknown) {
    if (this.closed || this.reconnectTimer) return;
    const delay = this.reconnectDelayMs;
    console.warn(`job wakeups: LISTEN connection unavailable (${error instanceof Error ? error.message : "closed"}); retrying in ${delay} ms`);
    this.reconnectDelayMs = Math.min(30_000, delay * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.ready();
    }, delay);
    this.reconnectTimer.unref();
  }
}

const globalForWakeups = globalThis as unknown as { versusJobWakeups?: JobWakeups };

/** This process's listener on the app's database (cached across Next.js dev reloads). */
export function jobWakeups(): JobWakeups {
  return (globalForWakeups.versusJobWakeups ??= new JobWakeups(requiredEnv("DATABASE_URL")));
}
