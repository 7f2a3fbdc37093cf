// The server's processes run with at most two glibc malloc arenas (MALLOC_ARENA_MAX), unless the
// user set a number. glibc gives each thread that allocates while others do an arena of its own,
// up to eight per core, and keeps what an arena freed for that arena: beside a server process's
// main thread, libuv's pool (zlib, file reads) and V8's collection and compilation threads all
// allocate, and the arenas' kept memory added tens of MB of RSS per process under load. With one
// server process under bench/load.ts (30 s, four runs alternated): RSS peak 498 and 517 MB, end
// 490 MB with glibc's default; 472 and 479 MB, end 444 and 445 MB with two arenas, at the same
// CPU per upload. glibc reads the variable when a process starts, so it goes into the server's
// environment (its worker processes inherit it); other allocators ignore it.
export const SERVER_MALLOC_ARENAS = "2";

/** The environment `npm start` gives the server (scripts/serve.ts): `env` with MALLOC_ARENA_MAX set unless it already is. */
export function serverEnvironment<Env extends Record<string, string | undefined>>(env: Env): Env & { MALLOC_ARENA_MAX: string } {
  return { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || SERVER_MALLOC_ARENAS };
}
