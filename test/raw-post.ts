// A POST over node:http whose body goes out in chunks, for the tests of bodies a server refuses
// before reading them whole: with their Content-Length, chunked, or declaring more than is ever
// sent. It stops sending once the answer is in, as a client should (a 10 GB body would never end).
import http from "node:http";

export type RawAnswer = { status: number; body: string } | Error;

export interface RawPost {
  headers?: Record<string, string>;
  agent?: http.Agent;
  chunk: Buffer;
  chunks: number;
  /** The Content-Length to declare; none: chunked. The request ends only when that many bytes are sent. */
  contentLength?: number;
}

/** The answer, or the error the client got instead of one. */
export function rawPost(url: string, post: RawPost): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const length = post.contentLength === undefined ? {} : { "content-length": String(post.contentLength) };
    const req = http.request(url, { method: "POST", headers: { ...post.headers, ...length }, agent: post.agent });
    req.on("response", (response) => {
      const body: Buffer[] = [];
      response.on("data", (data: Buffer) => body.push(data));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(body).toString() });
        if (!req.writableFinished) req.destroy();
      });
    });
    req.on("error", resolve);
    const total = post.chunk.length * post.chunks;
    let sent = 0;
    const write = () => {
      while (sent < post.chunks) {
        sent++;
        if (!req.write(post.chunk)) return void req.once("drain", write);
      }
      if (post.contentLength === undefined || post.contentLength === total) req.end();
    };
    write();
  });
}
