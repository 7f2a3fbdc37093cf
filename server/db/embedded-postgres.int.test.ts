// The embedded PostgreSQL as root, under a private data folder: PostgreSQL refuses to run as root
// and runs as the system user "postgres", which could not enter a `.data/` made 0700 (as the
// local agent's credential store makes it private), so initdb failed ("could not access directory
// … Permission denied"). It must initialise and start there, let that user traverse the folder
// and nothing more, and never let it (or anyone else) read the credentials kept beside it.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "~/test/free-port";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded-postgres";

const asRoot = process.getuid?.() === 0;
const started: EmbeddedServer[] = [];
const made: string[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.stop();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A folder like a checkout's (readable by all), holding a `.data/` of mode 0700 with a credential store in it. */
function checkoutWithPrivateData() {
  const checkout = fs.mkdtempSync(path.join(os.tmpdir(), "versus-root-"));
  made.push(checkout);
  fs.chmodSync(checkout, 0o755);
  const data = path.join(checkout, ".data");
  fs.mkdirSync(path.join(data, "local-agent"), { recursive: true, mode: 0o700 });
  fs.chmodSync(data, 0o700);
  const credential = path.join(data, "local-agent", "credential.json");
  fs.writeFileSync(credential, '{"credential": "vsag_secret"}', { mode: 0o600 });
  return { checkout, data, credential };
}

const postgresUser = () => ({
  uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })),
  gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })),
});
/** Whether the postgres user can read `file` (tried as that user). */
const postgresCanRead = (file: string) => spawnSync("cat", [file], { ...postgresUser(), stdio: "ignore" }).status === 0;
/** Whether a user that is neither root nor postgres can enter `dir`. */
const nobodyCanEnter = (dir: string) => spawnSync("ls", [dir], { uid: 65534, gid: 65534, stdio: "ignore" }).status === 0;

async function selectOne(server: EmbeddedServer) {
  const client = new pg.Client({ connectionString: server.urlFor("postgres") });
  await client.connect();
  try {
    return (await client.query<{ one: number }>("SELECT 1 AS one")).rows[0]?.one;
  } finally {
    await client.end();
  }
}

describe.runIf(asRoot)("the embedded PostgreSQL as root, under a .data/ of mode 0700", () => {
  it("initialises and starts in .data/ itself; the postgres user may traverse .data/ and read nothing of the credential store", async () => {
    const { data, credential } = checkoutWithPrivateData();
    const server = await startEmbeddedPostgres({ dataDir: data, port: await freePort() });
    started.push(server);
    expect(await selectOne(server)).toBe(1);

    const mode = fs.statSync(data).mode & 0o777;
    expect(mode & 0o700).toBe(0o700); // the owner keeps everything
    expect(mode & 0o007).toBe(0); // others get nothing
    expect(postgresCanRead(credential)).toBe(false);
    expect(postgresCanRead(path.join(data, "postgres-credentials.json"))).toBe(false);
    expect(nobodyCanEnter(data)).toBe(false);

    // Started again on the cluster it made.
    await server.stop();
    started.pop();
    const again = await startEmbeddedPostgres({ dataDir: data, port: await freePort() });
    started.push(again);
    expect(await selectOne(again)).toBe(1);
  });

  it("initialises a data directory further down (.data/dev-3305), the folders Versus may open named", async () => {
    const { data, credential } = checkoutWithPrivateData();
    const dataDir = path.join(data, "dev-3305");
    const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), reachableFrom: data });
    started.push(server);
    expect(await selectOne(server)).toBe(1);
    expect(postgresCanRead(credential)).toBe(false);
    expect(nobodyCanEnter(data)).toBe(false);
  });

  it("a folder above those it may change that keeps the postgres user out: a clear error naming it, not initdb's", async () => {
    const { data } = checkoutWithPrivateData();
    const dataDir = path.join(data, "dev-3305");
    await expect(startEmbeddedPostgres({ dataDir, port: await freePort() })).rejects.toThrow(
      `PostgreSQL runs as the system user "postgres" (Versus runs as root), which cannot enter ${data} (mode 0700)`,
    );
    expect(fs.statSync(data).mode & 0o777).toBe(0o700); // left as it was
  });
});
