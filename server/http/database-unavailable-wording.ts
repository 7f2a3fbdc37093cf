// What a person is told while the database is away, said the same by the page the front server
// answers with 503 (scripts/lib/outage-page.ts) and by the pages' error boundary (app/error.tsx),
// which shows it after a client-side navigation, whose answer had begun before the render failed.
// No Node.js here: the error boundary runs in the browser.
import { DATABASE_RETRY_AFTER_SECONDS } from "../db/retry-after";

/**
 * The `digest` of the error a page's render throws when the database is unavailable. Next.js
 * hands an error's own digest to the error boundary unchanged, and nothing else of a server error
 * in production: the boundary tells the database's absence by it.
 */
export const DATABASE_UNAVAILABLE_DIGEST = "VERSUS_DATABASE_UNAVAILABLE";

export const databaseUnavailableWording = {
  title: "Versus can't reach its database",
  explanation:
    "PostgreSQL is restarting, stopped, full or refusing connections, or the network to it is down. Nothing you saved is lost, and Versus connects again by itself once the database is back.",
  retry: "Try again",
  hint: `Try again in about ${DATABASE_RETRY_AFTER_SECONDS} seconds. If this lasts, whoever runs Versus finds the reason in its log, on the lines that start with “database unavailable”.`,
};
