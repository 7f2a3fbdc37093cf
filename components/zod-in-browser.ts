// Zod in the browser never tries to compile parsers with `new Function`: the pages' policy
// forbids eval (server/http/security-headers.ts), and even Zod's caught probe for it is reported as
// a violation. Imported once by the root layout's client provider, before any form parses.
import { z } from "zod";

z.config({ jitless: true });
