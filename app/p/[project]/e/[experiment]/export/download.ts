// The one wrapper of the export downloads: runs the tRPC procedure in-process (as the pages do,
// so the database stays behind the server's procedures), and answers with the file as an
// attachment, or with the error's HTTP status and message as plain text (with Retry-After while
// the database is away, as every API answer).
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { createCaller } from "~/server/api/root";
import { createTRPCContext, isUnexpected, publicMessageOf, responseMeta } from "~/server/api/trpc";
import type { TExportFile } from "~/server/schemas/report";

export type RouteParams = { params: Promise<{ project: string; experiment: string }> };
type Caller = ReturnType<typeof createCaller>;

export async function download(req: Request, produce: (caller: Caller, baseline: string | undefined) => Promise<TExportFile>): Promise<Response> {
  try {
    const caller = createCaller(() => createTRPCContext({ headers: req.headers }));
    const baseline = new URL(req.url).searchParams.get("baseline") || undefined;
    const file = await produce(caller, baseline);
    return new Response(file.text, {
      headers: {
        "Content-Type": file.contentType,
        // Slugs are plain ASCII, so the name needs no RFC 5987 encoding.
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    if (isUnexpected(error)) console.error(`download ${new URL(req.url).pathname} failed:`, error.cause ?? error);
    const { headers } = responseMeta({ errors: [error] });
    headers.set("Content-Type", "text/plain; charset=utf-8");
    return new Response(`${publicMessageOf(error)}\n`, { status: getHTTPStatusCodeFromError(error), headers });
  }
}
