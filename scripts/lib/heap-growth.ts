// How far V8 lets the heap grow past what survived its last full collection (scripts/serve.ts,
// VERSUS_HEAP_GROWTH_PERCENT). On its own V8 grows it by up to 4× when collections are quick, so a
// server under a steady load holds hundreds of MB of garbage it has room to leave; a growth
// factor keeps the heap near its live size without a cap that would end the process on a large
// upload. Set at run time because Node refuses the flag in NODE_OPTIONS.
import v8 from "node:v8";
import vm from "node:vm";

/** 0 leaves V8's own growth. */
export function limitHeapGrowth(percent: number): void {
  if (percent <= 0) return;
  v8.setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
  // V8 uses the factor when it next sizes the heap, after a full collection. The last one sized it
  // with V8's own growth while Next.js loaded, and garbage would pile up to that size first: a
  // second server process reached 400 MB of heap with 190 MB alive. One collection now (once, tens
  // of milliseconds before the first request) makes the limit hold from the start. `gc` is only
  // given to contexts made after --expose-gc, hence the new one.
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}
