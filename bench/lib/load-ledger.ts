// What the load benchmark's uploaders sent and what the server answered, kept so the database
// can be checked against it afterwards (load-verify.ts). Every upload carries its own
// Idempotency-Key; some are sent again with the same key and body, both while the first is still
// in flight and after it was answered, the way a client retries after a timeout or a lost reply.
import type autocannon from "autocannon";
import type { UploadBody } from "./load-bodies";

export interface StoredRun {
  id: string;
  variant: string;
  repetition: number;
  metrics: string[];
}

export interface UploadRecord {
  key: string;
  /** The request as sent, less its body. */
  upload: Omit<UploadBody, "body">;
  /** The body, until an answer arrives (a client whose answer got lost sends it again). */
  unansweredBody?: string;
  /** How many times the request went out (the original and its retries). */
  sends: number;
  /** Every answer, in arrival order: status, and for 2xx the runs it reported. */
  answers: { status: number; runs?: StoredRun[]; replayed?: boolean }[];
}

export class Ledger {
  readonly uploads = new Map<string, UploadRecord>();

  sent(key: string, upload: UploadBody) {
    const record = this.uploads.get(key) ?? {
      key,
      upload: { path: upload.path, contentType: upload.contentType, runs: upload.runs, metricsPerRun: upload.metricsPerRun },
      sends: 0,
      answers: [],
    };
    record.sends++;
    if (!record.answers.length) record.unansweredBody = upload.body;
    this.uploads.set(key, record);
  }

  answered(key: string, status: number, body: string) {
    const record = this.uploads.get(key);
    if (!record) throw new Error(`an answer for an upload never sent (${key})`);
    delete record.unansweredBody;
    if (status >= 200 && status < 300) {
      const parsed = JSON.parse(body) as { runs: StoredRun[]; replayed: boolean };
      record.answers.push({ status, runs: parsed.runs, replayed: parsed.replayed });
    } else {
      record.answers.push({ status });
    }
  }

  /** Uploads sent but never answered (the client timed out, or the load stopped with them in flight). */
  unanswered(): UploadRecord[] {
    return [...this.uploads.values()].filter((record) => record.answers.length === 0);
  }

  /** Uploads with at least one 2xx answer. */
  acknowledged(): UploadRecord[] {
    return [...this.uploads.values()].filter((record) => record.answers.some((a) => a.runs));
  }
}

/** Sends every unanswered upload once more, with its key and body, as its client would retry it; four at a time. */
export async function resendUnanswered(baseUrl: string, headers: Record<string, string>, ledger: Ledger): Promise<void> {
  const queue = ledger.unanswered();
  const worker = async () => {
    for (let record = queue.shift(); record; record = queue.shift()) {
      const body = record.unansweredBody as string;
      ledger.sent(record.key, { ...record.upload, body });
      const response = await fetch(`${baseUrl}${record.upload.path}`, {
        method: "POST",
        headers: { ...headers, "Content-Type": record.upload.contentType, "Idempotency-Key": record.key },
        body,
      });
      ledger.answered(record.key, response.status, await response.text());
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

interface Job extends UploadBody {
  key: string;
  retry: boolean;
}

export interface UploaderOptions {
  /** Names the uploader's Idempotency-Keys, e.g. "results". */
  name: string;
  /** The index-th upload (0, 1, 2, …). */
  make: (index: number) => UploadBody;
  ledger: Ledger;
  headers: Record<string, string>;
  /** Share of uploads sent a second time at once, while the first copy is in flight. */
  concurrentRetries: number;
  /** Share of acknowledged uploads sent again after their answer. */
  laterRetries: number;
  random: () => number;
}

/**
 * The autocannon request of an uploader: each request is the next queued retry or a new upload.
 * autocannon keeps one request in flight per connection and hands setupRequest and onResponse
 * that connection's context, which is how an answer finds the upload it belongs to.
 */
export function uploaderRequest(options: UploaderOptions): autocannon.Request {
  const { name, make, ledger, headers, random } = options;
  const retries: Job[] = [];
  let next = 0;
  return {
    setupRequest(request, context) {
      const index = next++;
      const job = retries.shift() ?? { ...make(index), key: `${name}-${index}-${random().toString(36).slice(2, 10)}`, retry: false };
      (context as { job?: Job }).job = job;
      ledger.sent(job.key, job);
      if (!job.retry && random() < options.concurrentRetries) retries.push({ ...job, retry: true });
      return {
        ...request,
        method: "POST",
        path: job.path,
        body: job.body,
        headers: { ...headers, "Content-Type": job.contentType, "Idempotency-Key": job.key },
      };
    },
    onResponse(status, body, context) {
      const job = (context as { job?: Job }).job as Job;
      ledger.answered(job.key, status, body);
      if (status >= 200 && status < 300 && !job.retry && random() < options.laterRetries) retries.push({ ...job, retry: true });
    },
  };
}
