// Which requests met an unavailable database, for the server in front of Next.js: a page whose
// render failed because the database was away is then answered 503 with Retry-After and the
// "can't reach its database" page (scripts/lib/outage-page.ts) instead of Next.js's 500. Next.js
// cannot give a page such a status itself (only 404, 403 and 401, and none once it streams).
// Next.js renders a page in the async context of the request it was handed, so a store the
// front server opens around each request reaches whatever finds the database away
// (databaseUnavailableError in ./unavailable.ts). One store per process, through globalThis:
// Next.js bundles a copy of this module of its own.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestDatabaseOutcome {
  /** Something in this request was answered "database unavailable". */
  databaseUnavailable: boolean;
}

const STORE = Symbol.for("versus.requestDatabaseOutcome");
const holder = globalThis as { [STORE]?: AsyncLocalStorage<RequestDatabaseOutcome> };
const outcomes = (holder[STORE] ??= new AsyncLocalStorage<RequestDatabaseOutcome>());

/** Runs `handle` (one request) with an outcome of its own, which it returns beside the result. */
export function withDatabaseOutcome<T>(handle: (outcome: RequestDatabaseOutcome) => T): T {
  const outcome: RequestDatabaseOutcome = { databaseUnavailable: false };
  return outcomes.run(outcome, () => handle(outcome));
}

/** Notes on the current request (if the front server tracks it) that the database was unavailable. */
export function noteDatabaseUnavailable(): void {
  const outcome = outcomes.getStore();
  if (outcome) outcome.databaseUnavailable = true;
}
