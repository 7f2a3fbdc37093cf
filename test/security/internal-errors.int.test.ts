// An unexpected failure (here: every query throws an error whose message holds what a driver's
// might: a host, a port, a password) answers a generic message over tRPC and REST alike — not
// the message, not the stack — and the details go to the server log. Expected refusals keep
// their own message.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { download } from "~/app/p/[project]/e/[experiment]/export/download";
import { appRouter } from "~/server/api/root";
import { createTRPCContext } from "~/server/api/trpc";
import { authenticatedRoute } from "~/server/api/rest/handler";
import { db, type Db } from "~/server/db/client";
import { INTERNAL_ERROR_MESSAGE } from "~/server/core/errors";
import { signedInUser, type TestUser } from "~/test/signed-in";

const SECRET_DETAIL = "connect ECONNREFUSED 10.1.2.3:5432 (user versus, password hunter2)";
/** A database on which every query fails unexpectedly. */
const broken = new Proxy({} as Db, {
  get: () =>
    new Proxy(() => undefined, {
      get: () => () => Promise.reject(new Error(SECRET_DETAIL)),
      apply: () => Promise.reject(new Error(SECRET_DETAIL)),
    }),
});
let user: TestUser;

beforeAll(async () => {
  user = await signedInUser(db, "errors");
});
afterAll(() => db.$disconnect());

const leaks = (text: string) => [/10\.1\.2\.3/, /5432/, /hunter2/, /ECONNREFUSED/, /\bat [\w.<>]+ \(/, /node_modules/].filter((pattern) => pattern.test(text));

function trpc(path: string, input: unknown, contextDb: Db = broken) {
  const url = `http://localhost:3000/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(url, { headers: { cookie: user.cookie } }),
    router: appRouter,
    // The session is read from the real database; the procedure then runs on the broken one.
    createContext: async () => ({ ...(await createTRPCContext({ headers: new Headers({ cookie: user.cookie }) })), db: contextDb }),
  });
}

describe("an unexpected failure answers a generic message", () => {
  it("over tRPC: INTERNAL_SERVER_ERROR with the generic message and nothing of the cause", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await trpc("project.list", undefined);
    logged.mockRestore();
    expect(response.status).toBe(500);
    const text = await response.text();
    const body = JSON.parse(text) as { error: { json: { message: string; data: { code: string; stack?: string | null } } } };
    expect(body.error.json.data.code).toBe("INTERNAL_SERVER_ERROR");
    expect(body.error.json.message).toBe(INTERNAL_ERROR_MESSAGE);
    expect(body.error.json.data.stack ?? null).toBeNull();
    expect(leaks(text), text).toEqual([]);
  });

  it("over tRPC, an expected refusal still says what is wrong", async () => {
    const response = await trpc("experiment.list", { projectSlug: "no-such-project" }, db);
    const body = (await response.json()) as { error: { json: { message: string } } };
    expect(response.status).toBe(404);
    expect(body.error.json.message).toBe('No project "no-such-project"');
  });

  it("over REST: 500 with the generic message, the details in the log", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const route = authenticatedRoute(
      async () => ({}),
      async () => {
        await broken.project.count();
        return Response.json({});
      },
    );
    const response = await route(new Request("http://localhost:3000/api/v1/results"));
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "INTERNAL", message: INTERNAL_ERROR_MESSAGE } });
    expect(leaks(text), text).toEqual([]);
  });

  it("a download: 500 with the generic message as its text, while a refusal keeps its own", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    // What an in-process tRPC call throws when its procedure fails unexpectedly.
    const failed = await download(new Request("http://localhost:3000/p/x/e/y/export/runs.csv"), () =>
      Promise.reject(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: new Error(SECRET_DETAIL) })),
    );
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
    expect(failed.status).toBe(500);
    const text = await failed.text();
    expect(text).toBe(`${INTERNAL_ERROR_MESSAGE}\n`);
    const refused = await download(new Request("http://localhost:3000/p/x/e/y/export/runs.csv"), () =>
      Promise.reject(new TRPCError({ code: "NOT_FOUND", message: 'No project "x"' })),
    );
    expect(refused.status).toBe(404);
    expect(await refused.text()).toBe('No project "x"\n');
  });
});
