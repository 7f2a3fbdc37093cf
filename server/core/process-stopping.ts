// Whether this server process is stopping: its own SIGINT/SIGTERM handler (scripts/serve.ts) says
// so. A Ctrl-C in the terminal reaches the embedded PostgreSQL at the same moment (one process
// group), and it closes every connection while the server is still stopping; those closings are
// then expected, not faults worth a warning. A database that goes away while the server runs is
// still reported.
//
// Kept on globalThis: the Next.js build bundles its own copy of the server's modules, and the
// copy serve.ts loads must tell it too (as ../db/client.ts shares its client).
const state = globalThis as unknown as { versusProcessStopping?: boolean };

export function markProcessStopping(): void {
  state.versusProcessStopping = true;
}

export function processIsStopping(): boolean {
  return state.versusProcessStopping === true;
}
