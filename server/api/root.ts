import { accountRouter } from "./routers/account";
import { agentRouter } from "./routers/agent";
import { alertRouter } from "./routers/alert";
import { apiKeyRouter } from "./routers/api-key";
import { enrollmentTokenRouter } from "./routers/enrollment-token";
import { experimentRouter } from "./routers/experiment";
import { historyRouter } from "./routers/history";
import { invitationRouter } from "./routers/invitation";
import { jobRouter } from "./routers/job";
import { memberRouter } from "./routers/member";
import { projectRouter } from "./routers/project";
import { reportRouter } from "./routers/report";
import { setupRouter } from "./routers/setup";
import { shareRouter } from "./routers/share";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  project: projectRouter,
  experiment: experimentRouter,
  history: historyRouter,
  apiKey: apiKeyRouter,
  enrollmentToken: enrollmentTokenRouter,
  agent: agentRouter,
  job: jobRouter,
  report: reportRouter,
  setup: setupRouter,
  member: memberRouter,
  invitation: invitationRouter,
  share: shareRouter,
  alert: alertRouter,
  account: accountRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller (React Server Components, tests): same procedures, no HTTP. */
export const createCaller = createCallerFactory(appRouter);
