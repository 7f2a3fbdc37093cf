// Values test/integration-setup.ts provides to every integration test (read with inject()).
import "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    /** URL of the server's maintenance database, for tests that create databases of their own. */
    adminDatabaseUrl: string;
  }
}
