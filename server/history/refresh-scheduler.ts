// Runs change-point refreshes (and then the alert rules) after runs were stored, outside the request that stored them: an
// upload, an import or an agent's complete answers as soon as its own transaction committed, and
// a failed refresh is logged, never the upload's failure. Refreshes of one experiment are
// coalesced: while one runs, any number of new requests make exactly one more run after it (so
// the last stored runs are always analysed), and that one starts REFRESH_SPACING_MS after the
// previous one ended: agents completing jobs with commits would otherwise keep a refresh of the
// whole history running all the time.
import type { Db } from "../db/client";
import { evaluateAlertRules } from "../regressions/evaluate-rules";
import { refreshChangePoints, type NewChangePoint } from "./change-point-store";

/** Least time between the end of one refresh of an experiment and the start of the next. */
export const REFRESH_SPACING_MS = 1000;

interface State {
  running: Promise<void>;
  again: boolean;
}

const states = new Map<string, State>();
const listeners = new Set<(found: NewChangePoint[]) => Promise<void> | void>();

/**
 * Called with the change points each background refresh of this module instance stored for the
 * first time. A bundler may give each route its own instance of this module, so a listener
 * registered from one route does not hear refreshes scheduled by another: work that must follow
 * every refresh (alerts) belongs in the loop below, next to refreshChangePoints. Returns the
 * function that removes the listener.
 */
export function onNewChangePoints(listener: (found: NewChangePoint[]) => Promise<void> | void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Refresh the experiment's change points soon, in the background. Never throws. */
export function scheduleChangePointRefresh(db: Db, experimentId: string): void {
  const state = states.get(experimentId);
  if (state) {
    state.again = true;
    return;
  }
  const next: State = { running: Promise.resolve(), again: false };
  next.running = (async () => {
    for (let first = true; first || next.again; first = false) {
      if (!first) await new Promise((resolve) => setTimeout(resolve, REFRESH_SPACING_MS));
      next.again = false;
      let found: NewChangePoint[] = [];
      try {
        found = await refreshChangePoints(db, experimentId);
        if (found.length) for (const listener of listeners) await listener(found);
      } catch (error) {
        // An experiment (or one of its metrics) deleted while its refresh ran is no failure.
        if (await stillThere(db, experimentId)) console.error(`change-point refresh of experiment ${experimentId} failed:`, error);
      }
      // Alert rules see the runs and the change points just found (server/regressions/evaluate-rules.ts).
      try {
        await evaluateAlertRules(db, experimentId, found);
      } catch (error) {
        if (await stillThere(db, experimentId)) console.error(`alert rules of experiment ${experimentId} could not be evaluated:`, error);
      }
    }
    states.delete(experimentId);
  })();
  states.set(experimentId, next);
}

/** Resolves when no refresh is running or pending (tests, benchmarks, shutdown). */
export async function changePointRefreshesSettled(): Promise<void> {
  while (states.size > 0) await Promise.all([...states.values()].map((s) => s.running));
}

/** Whether the experiment still exists (true when that cannot be told: the failure is then logged). */
async function stillThere(db: Db, experimentId: string): Promise<boolean> {
  try {
    return (await db.experiment.count({ where: { id: experimentId } })) > 0;
  } catch {
    return true;
  }
}
