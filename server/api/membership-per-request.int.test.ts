// A page's request (or a tRPC batch) calls many queries of one project: the caller's membership
// is looked up once per context and shared by its queries, while a mutation — which may change
// who is a member — looks again, and so does every query after it. Real sessions, real database.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { memberOf, projectWithOwner } from "~/test/project-members";
import { expectTRPCError } from "~/test/trpc-errors";
import { createCaller } from "./root";
import { createTRPCContext } from "./trpc";

afterAll(async () => {
  await db.$disconnect();
});

describe("a project's membership within one request", () => {
  it("is looked up once for its queries, again for a mutation and whatever follows it; a role too low is refused however it was found", async () => {
    const project = await projectWithOwner(db, "memo");
    const member = await memberOf(db, project, "member");
    const ref = { projectSlug: project.slug };
    const request = createCaller(await createTRPCContext({ headers: member.headers(), db }));
    expect(await request.agent.list(ref)).toEqual([]);

    await db.member.deleteMany({ where: { projectId: project.id, userId: member.id } });
    // The same request's next query shares the look-up; a new request finds no membership.
    expect(await request.agent.list(ref)).toEqual([]);
    await expectTRPCError(createCaller(await createTRPCContext({ headers: member.headers(), db })).agent.list(ref), "NOT_FOUND");
    // A mutation looks again (and fails: no membership), as does every query after it.
    await expectTRPCError(request.agent.revoke({ ...ref, agentId: "no-such-agent" }), "NOT_FOUND");
    await expectTRPCError(request.agent.list(ref), "NOT_FOUND");

    // Found as a viewer by a query: a member's mutation in the same request is refused.
    const viewer = await memberOf(db, project, "viewer");
    const viewing = createCaller(await createTRPCContext({ headers: viewer.headers(), db }));
    expect(await viewing.agent.list(ref)).toEqual([]);
    await expectTRPCError(viewing.agent.revoke({ ...ref, agentId: "no-such-agent" }), "FORBIDDEN");
  });
});
