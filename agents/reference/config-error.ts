// A configuration the agent cannot start with (a bad flag, variable or credential): main.ts
// logs it and exits 78, since restarting will not help. Its own module so that config.ts and
// git-commit.ts can throw it without importing the agent they configure.
export class ConfigError extends Error {}
