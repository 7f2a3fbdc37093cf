// Private data must not be kept by the browser's cache: tRPC answers (queries are GETs) say
// no-store, like the downloads do. (Pages are rendered per request and Next.js sends them
// no-store itself; e2e/security-headers.spec.ts checks that on the production server.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as trpcGet, POST as trpcPost } from "~/app/api/trpc/[trpc]/route";
import { db } from "~/server/db/client";
import { signedInUser, type TestUser } from "~/test/signed-in";

let user: TestUser;
beforeAll(async () => {
  user = await signedInUser(db, "cache");
});
afterAll(() => db.$disconnect());

describe("tRPC answers", () => {
  it("a query, a mutation and a refusal all say Cache-Control: no-store", async () => {
    const query = await trpcGet(new Request("http://localhost:3000/api/trpc/project.list", { headers: { cookie: user.cookie } }));
    expect(query.status).toBe(200);
    const mutation = await trpcPost(
      new Request("http://localhost:3000/api/trpc/project.create", {
        method: "POST",
        headers: { cookie: user.cookie, "content-type": "application/json", "sec-fetch-site": "same-origin" },
        body: JSON.stringify({ json: { name: "", slug: "" } }),
      }),
    );
    expect(mutation.status).toBe(400);
    const signedOut = await trpcGet(new Request("http://localhost:3000/api/trpc/project.list"));
    expect(signedOut.status).toBe(401);
    for (const response of [query, mutation, signedOut]) expect(response.headers.get("cache-control")).toBe("no-store");
  });
});
