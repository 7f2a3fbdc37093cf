// The project API keys this process has authenticated, kept so that a REST call (an upload, a
// poll of a comparison) does not begin with a statement of its own: under a team's CI load that
// round trip was a third of an upload's and half of a comparison read's (bench/load.ts).
//
// A key is kept only while the process LISTENs on versus_api_keys (server/db/wakeups.ts), where a
// trigger announces, when its transaction commits, every change of what a key grants: revoked,
// renamed, rescoped, deleted with its project (prisma/migrations/20261204090000_api_key_changes_notify).
// The key is then forgotten, in every process. What was read while any key changed, or kept
// before the LISTEN connection was last lost, is not used: a change may have gone unheard. So a
// revocation reaches every process within the notification's delivery (milliseconds; this
// process forgets its keys at once), and a process that cannot listen reads every key as before.
import { requiredEnv } from "../core/env";
import { Wakeups } from "../db/wakeups";
import type { StoredApiKey } from "./api-keys";

export const API_KEYS_CHANNEL = "versus_api_keys";

/** Enough for every key a deployment uses; past it, the longest kept is dropped. */
const MAX_KEPT = 10_000;

interface Kept {
  key: StoredApiKey;
  /** The LISTEN connection it was read under (Wakeups.connections). */
  connection: number;
}

export class ApiKeyCache {
  private readonly kept = new Map<string, Kept>();
  /** Notifications heard: a read that saw this change does not keep what it read. */
  private changes = 0;
  private readonly listener: Wakeups;

  constructor(databaseUrl: string) {
    this.listener = new Wakeups(databaseUrl, API_KEYS_CHANNEL, "API key changes");
    this.listener.onKey((secretHash) => {
      this.changes++;
      if (secretHash === "*") this.kept.clear();
      else this.kept.delete(secretHash);
    });
  }

  /**
   * The key whose secret hashes to `secretHash`: the one kept, else what `read` finds (undefined:
   * no such key), kept when nothing can have changed it unheard.
   */
  async get(secretHash: string, read: () => Promise<StoredApiKey | undefined>): Promise<StoredApiKey | undefined> {
    const listening = this.listener.listening;
    const connection = this.listener.connections;
    const kept = listening ? this.kept.get(secretHash) : undefined;
    if (kept?.connection === connection) return kept.key;
    if (!listening) void this.listener.ready();
    const changes = this.changes;
    const key = await read();
    if (key && listening && this.listener.listening && this.listener.connections === connection && this.changes === changes) {
      this.kept.delete(secretHash);
      this.kept.set(secretHash, { key, connection });
      if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    }
    return key;
  }

  /** Forgets every key at once: this process changed one (its own notification follows). */
  forgetAll(): void {
    this.changes++;
    this.kept.clear();
  }

  /** Keys kept now (for tests). */
  get size(): number {
    return this.kept.size;
  }

  /** Opens the LISTEN connection; resolves once it listens or the attempt failed (tests). */
  ready(): Promise<void> {
    return this.listener.ready();
  }

  close(): Promise<void> {
    return this.listener.close();
  }
}

const globalForKeys = globalThis as unknown as { versusApiKeyCache?: ApiKeyCache };

/** This process's keys on the app's database (one listener per process, as the job wakeups). */
export function apiKeyCache(): ApiKeyCache {
  return (globalForKeys.versusApiKeyCache ??= new ApiKeyCache(requiredEnv("DATABASE_URL")));
}

/** After this process changed a key: its notification reaches the other processes. */
export function forgetKeptApiKeys(): void {
  globalForKeys.versusApiKeyCache?.forgetAll();
}
