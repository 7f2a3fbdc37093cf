// The load benchmark's readers again, without the uploaders, each endpoint held to the rate it was
// answered at during the load (autocannon's overallRate: an open loop, not the closed one of the
// load). Two uses in bench/lib/load-run.ts:
//  - alone, to price a read: the server's and PostgreSQL's CPU over this phase ÷ its answers is
//    what each read of the load cost, so the readers' share of the load's CPU can be taken out of
//    the CPU per upload (the uploads' own cost);
//  - beside the raw-SQL reference, so the reference stores its rows on a machine doing the same
//    reads as Versus's uploads shared it with. Closed-loop readers would not do: with the server
//    otherwise idle they would read as fast as it answers, and take the reference far more CPU
//    than they took Versus's uploads.
import autocannon from "autocannon";

export interface Reader {
  title: string;
  connections: number;
  path: string;
  headers: Record<string, string>;
  /** Answers per second during the load: the rate held here. */
  perSecond: number;
}

export interface ReadersAtRates {
  /** Reads answered, all endpoints together. */
  answered: number;
  /** Reads answered per second, per endpoint, in the readers' order. */
  perSecond: number[];
  /** Reads not answered 2xx (and socket errors), all endpoints together. */
  failed: number;
}

/** Runs `readers` at their rates for `seconds`. */
export async function readersAtRates(baseUrl: string, readers: Reader[], seconds: number): Promise<ReadersAtRates> {
  const runs = readers.map((reader) =>
    autocannon({
      title: reader.title,
      url: baseUrl,
      connections: reader.connections,
      duration: seconds,
      // At least one a second, so an endpoint that was answered rarely still gets priced.
      overallRate: Math.max(1, Math.round(reader.perSecond)),
      headers: reader.headers,
      requests: [{ method: "GET", path: reader.path }],
    }),
  );
  const results = await Promise.all(runs);
  return {
    answered: results.reduce((n, r) => n + r["2xx"], 0),
    perSecond: results.map((r) => r["2xx"] / r.duration),
    failed: results.reduce((n, r) => n + r.requests.total - r["2xx"] + r.errors, 0),
  };
}
