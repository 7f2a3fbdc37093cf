"use client";
// A row's action button (revoke, cancel, retry…): run the mutation, keep its error message for
// the alert above the list, and refresh the list whether it worked or not (another user may
// have changed the row first).
import { useState } from "react";

export function useAction(refresh: () => Promise<unknown>) {
  const [error, setError] = useState<string>();
  const run = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "That did not work");
    }
    await refresh();
  };
  return { run, error };
}
