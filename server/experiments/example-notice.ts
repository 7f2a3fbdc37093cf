// What an example experiment is called, from its data rather than from text stored with it: a
// write-up's example runs are "example data", but once a user adds runs of their own (an agent's
// or an upload, anything but the seeded example runs) they are not only that, and a runnable
// example a user has run holds measurements of their own machines. The experiment page's badge,
// its notice and the report's banner all say what this says.

export interface RunOrigins {
  /** Runs Versus seeded with the example (source "example"). */
  example: number;
  /** Every other run: agents' runs, uploads, imports. */
  own: number;
}

export type ExampleKind = "example-data" | "example-and-own" | "runnable-example";

export interface ExampleNotice {
  kind: ExampleKind;
  badge: string;
  /** A Markdown sentence or two; null when there is nothing to warn about (a runnable example's own runs). */
  text: string | null;
}

const runs = (count: number) => `${count.toLocaleString("en-US")} run${count === 1 ? "" : "s"}`;

/** The notice an experiment gets; null for a user's own experiment. */
export function exampleNotice(isExample: boolean, origins: RunOrigins): ExampleNotice | null {
  if (!isExample) return null;
  if (origins.example > 0 && origins.own === 0) {
    return {
      kind: "example-data",
      badge: "example data",
      text: "**Example data.** This experiment ships with Versus to show how a write-up reads in it; its runs reproduce a published write-up, not measurements of your systems.",
    };
  }
  if (origins.example > 0) {
    return {
      kind: "example-and-own",
      badge: "example data and yours",
      text:
        `**Example data and your own runs.** ${runs(origins.example)} shipped with Versus and reproduce a published write-up (tagged *example data*); ` +
        `the other ${runs(origins.own)} ${origins.own === 1 ? "is" : "are"} yours. They were not measured on the same machines: compare them with care.`,
    };
  }
  if (origins.own === 0) {
    return {
      kind: "runnable-example",
      badge: "runnable example",
      text: "**Runnable example, no runs yet.** Versus created this experiment to be run on your machines: press Run and the project's agents measure it.",
    };
  }
  // A runnable example after Run: its runs are the user's measurements; nothing to warn about.
  return { kind: "runnable-example", badge: "runnable example", text: null };
}
