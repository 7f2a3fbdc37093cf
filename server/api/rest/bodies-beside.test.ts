// A JSON answer is the same Response whether its body is read from its stream (Next.js, a test)
// or taken beside it (the server in front of Next.js): same text, status and Content-Type as
// Response.json's.
import { describe, expect, it } from "vitest";
import { answerTextBeside, jsonAnswer } from "./bodies-beside";

describe("jsonAnswer", () => {
  it("is Response.json's answer, with its text also beside it", async () => {
    const body = { runs: [{ id: "r1", repetition: 3 }], replayed: false, note: "ünïcode ✓" };
    const answer = jsonAnswer(body, 201);
    const reference = Response.json(body, { status: 201 });
    expect(answer.status).toBe(201);
    expect(answer.headers.get("content-type")).toBe(reference.headers.get("content-type"));
    const text = await answer.text();
    expect(text).toBe(await reference.text());
    expect(answerTextBeside(answer)).toBe(text);
  });

  it("an answer built otherwise has no text beside it", () => {
    expect(answerTextBeside(Response.json({}))).toBeUndefined();
  });
});
