/** Seconds a client is asked to wait before retrying while the database is unavailable (the Retry-After header): about a PostgreSQL restart. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
