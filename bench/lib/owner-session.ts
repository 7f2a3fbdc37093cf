// A signed-in browser session on a bench server, made the way a new installation's first owner
// gets one: `versus admin setup-link`, the setup form's tRPC call, then better-auth's email
// sign-in. The owner owns every project that existed before (the benchmark's API-key project).
import { execFileSync } from "node:child_process";

const OWNER = { name: "Bench Owner", email: "bench-owner@example.test", password: "bench owner password" };

/** The Cookie header of the first owner's session. */
export async function signInFirstOwner(baseUrl: string, databaseUrl: string): Promise<string> {
  const setupUrl = execFileSync(process.execPath, ["scripts/cli/bin.mjs", "admin", "setup-link", "--url", baseUrl], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();
  const token = setupUrl.split("/setup/")[1];
  if (!token) throw new Error(`admin setup-link printed "${setupUrl}"`);

  // tRPC with the superjson transformer: the input goes under "json".
  const setup = await fetch(`${baseUrl}/api/trpc/setup.complete`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ json: { token, account: OWNER } }),
  });
  if (setup.status !== 200) throw new Error(`setup.complete: ${setup.status} ${await setup.text()}`);

  const signIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseUrl },
    body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
  });
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  if (!cookie) throw new Error("sign-in set no cookie");
  return cookie;
}
