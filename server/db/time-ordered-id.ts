// Ids of the rows an upload or an agent's run inserts (runs, their results and series, idempotency
// records, "runs stored" marks): UUIDv7, time-ordered, so runs inserted by one statement sort in
// request order, built by the uuid package.
//
// Its random bytes come from node:crypto in batches rather than from the uuid package's own
// source, crypto.getRandomValues once per id: in a server process Next.js wraps that function to
// track it in prerenders, and an upload of ten runs makes fifty ids: the wrapper and a native
// random-bytes job for each took about 2.5 % of the server's CPU per upload under bench/load.ts. Giving the bytes means giving the timestamp and counter too, so the
// ordering within a millisecond is kept here as the uuid package keeps it (RFC 9562, method 1: a
// counter seeded at random each new millisecond, incremented within one).
import { randomFillSync } from "node:crypto";
import { v7 } from "uuid";

const IDS_PER_BATCH = 256;
const batch = new Uint8Array(16 * IDS_PER_BATCH);
let used = IDS_PER_BATCH;
let msecs = -Infinity;
let seq = 0;

/** A new UUIDv7, later than every one made before it by this process. */
export function timeOrderedId(): string {
  if (used === IDS_PER_BATCH) {
    randomFillSync(batch);
    used = 0;
  }
  const random = batch.subarray(16 * used, 16 * ++used);
  const now = Date.now();
  if (now > msecs) {
    // 31 random bits, leaving room to count up within the millisecond.
    seq = (((random[6] as number) & 0x7f) << 24) | ((random[7] as number) << 16) | ((random[8] as number) << 8) | (random[9] as number);
    msecs = now;
  } else {
    seq = (seq + 1) | 0;
    // The counter ran over: borrow the next millisecond, as the uuid package does.
    if (seq === 0) msecs++;
  }
  return v7({ random, msecs, seq });
}
