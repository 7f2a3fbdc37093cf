// The shared comparison behind /s/<token>, once per request: the page and its metadata both need
// it, and a live link recomputes the comparison, so it is computed (and the view counted) once.
import "server-only";
import { cache } from "react";
import { api, orNotFound } from "~/app/_lib/trpc-server";

export const sharedComparison = cache(async (token: string) => orNotFound((await api()).share.view({ token })));
