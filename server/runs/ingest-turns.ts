// Turns for uploads in this server process, of two kinds, each a number of places taken in arrival
// order (the others wait in memory; a failed one passes its place on):
//
// - Uploads at work (MAX_UPLOADS_AT_WORK): an upload whose body has arrived waits for a place
//   before it is parsed, checked, prepared and stored. An upload is CPU work in many short steps
//   (parse, check, summarize, compress, statements), and with every uploader's steps in the event
//   loop's queue at once, each step of a page or comparison being read waited behind all of them:
//   under bench/load.ts (50 uploaders per process of two), once uploads stopped waiting on each
//   other in the database, the comparison's p50 went from 78 to 157 ms and the page's from 404 to
//   796 ms (medians of three runs), and back to 89 and 487 ms with 4 places (of five). A few places
//   keep the uploads' share of the queue small; the work is the same, and the uploads' latency is
//   mostly their wait for a place.
// - Upload transactions (MAX_INGEST_TRANSACTIONS): an upload that creates an experiment, variant
//   or metric takes the experiment's row lock (run-numbering.ts), and a transaction waiting for
//   that lock holds a pooled database connection meanwhile; a burst of such uploads would hold
//   every connection of the pool (node-postgres's default: 10), leaving none for the comparisons
//   and pages being read at the same time, and making uploads queued behind them fail once Prisma
//   gives up waiting for a connection. So at most MAX_INGEST_TRANSACTIONS upload transactions (or
//   single statements that store an upload, ingest-results.ts) run at once, and the rest of the
//   pool stays free for everything else. Fewer uploads are at work than that, so an upload at work
//   always finds a transaction's place (agents' completes take none).

/** Uploads one process parses, prepares and stores at once. */
export const MAX_UPLOADS_AT_WORK = 4;

/** Upload transactions one process runs at once: 6 of the pool's 10 connections, leaving 4 for everything else. */
export const MAX_INGEST_TRANSACTIONS = 6;

interface Turns {
  max: number;
  running: number;
  /** Those waiting for one of the `max` places. */
  slots: (() => void)[];
}

// On globalThis: the results and imports routes are separate bundles that must share one limit.
const global = globalThis as unknown as { versusTurns?: { work: Turns; transactions: Turns } };
const turns = (global.versusTurns ??= {
  work: { max: MAX_UPLOADS_AT_WORK, running: 0, slots: [] },
  transactions: { max: MAX_INGEST_TRANSACTIONS, running: 0, slots: [] },
});

/** Runs `work`, an upload's parsing, preparing and storing, once one of the MAX_UPLOADS_AT_WORK places is free. */
export const atWork = <T>(work: () => Promise<T>): Promise<T> => inPlace(turns.work, work);

/** Runs `transaction`, an upload's transaction, once one of the MAX_INGEST_TRANSACTIONS is free. */
export const inTurn = <T>(transaction: () => Promise<T>): Promise<T> => inPlace(turns.transactions, transaction);

/** Uploads of this process waiting for their turn: for a place at work, or for a transaction. */
export function waitingForTurn(kind: "work" | "transactions" = "transactions"): number {
  return turns[kind].slots.length;
}

async function inPlace<T>(of: Turns, work: () => Promise<T>): Promise<T> {
  await take(of);
  try {
    return await work();
  } finally {
    release(of);
  }
}

async function take(of: Turns): Promise<void> {
  if (of.running < of.max) {
    of.running++;
    return;
  }
  // release hands its place over: `running` stays as it is.
  await new Promise<void>((resolve) => of.slots.push(resolve));
}

function release(of: Turns) {
  const next = of.slots.shift();
  if (next) next();
  else of.running--;
}
