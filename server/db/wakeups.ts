// Wakes waiters when work appears, across every Versus process on one database: writers NOTIFY
// on a channel with a key as payload (delivered when their transaction commits: an agent job's
// project, an experiment whose runs were stored), and each process keeps ONE dedicated connection
// LISTENing per channel, which wakes the waiters of that key. A lost connection is re-opened with
// backoff; meanwhile, and always, waiters also look again on a timer of their own (expired leases
// and ended backoffs are never announced), so a missed notification costs at most that long.
import net from "node:net";
import pg from "pg";

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

export class Wakeups {
  private client: pg.Client | undefined;
  private readonly waiters = new Map<string, Set<Waiter>>();
  private connecting: Promise<void> | undefined;
  private reconnectDelayMs = 500;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly keyListeners = new Set<(key: string) => void>();
  private opened = 0;

  /** `name` says in logs and in pg_stat_activity what the connection is for. */
  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly name: string,
  ) {}

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
   * Starts listening for work of `key` ("*": of any key). Subscribe BEFORE looking for work: a
   * notification that arrives between the look and the wait is then not lost.
   */
  subscribe(key: string): WorkSubscription {
    const waiter: Waiter = { woken: false };
    let set = this.waiters.get(key);
    if (!set) this.waiters.set(key, (set = new Set()));
    set.add(waiter);
    const cancel = () => {
      set.delete(waiter);
      if (set.size === 0 && this.waiters.get(key) === set) this.waiters.delete(key);
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

  /**
   * How many times the LISTEN connection has been opened. The same count before and after, with
   * the connection listening both times, means no notification can have been missed between.
   */
  get connections(): number {
    return this.opened;
  }

  /** Calls `listener` with the key of every notification, as it arrives; returns what stops it. */
  onKey(listener: (key: string) => void): () => void {
    this.keyListeners.add(listener);
    return () => this.keyListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private wakeKey(key: string) {
    for (const waiters of [this.waiters.get(key), this.waiters.get("*")]) {
      for (const waiter of waiters ?? []) {
        waiter.woken = true;
        waiter.wake?.();
      }
    }
  }

  /** After a reconnect, notifications may have been missed: let every waiter look again. */
  private wakeAll() {
    for (const key of this.waiters.keys()) this.wakeKey(key);
  }

  private async connect(): Promise<void> {
    const socket = new net.Socket();
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: `versus ${this.name}`, stream: () => socket });
    client.on("notification", (message) => {
      if (message.channel !== this.channel || !message.payload) return;
      for (const listener of this.keyListeners) listener(message.payload);
      this.wakeKey(message.payload);
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
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
    this.opened++;
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
    console.warn(`${this.name}: LISTEN connection unavailable (${error instanceof Error ? error.message : "closed"}); retrying in ${delay} ms`);
    this.reconnectDelayMs = Math.min(30_000, delay * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.ready();
    }, delay);
    this.reconnectTimer.unref();
  }
}
