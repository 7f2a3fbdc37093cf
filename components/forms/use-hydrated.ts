"use client";
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False during server rendering and hydration, true once React owns the page. Forms keep their
 * submit button disabled until then: a click before hydration would submit the form natively
 * (a GET with every field in the URL) instead of through tRPC.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
