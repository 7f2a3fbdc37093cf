// GET /api/v1/experiments/{slugOrId}/badge/{metric}.svg[?branch=&variant=&window=&minChange=&share=]
// A README cannot send an API key, so besides `Authorization: Bearer <project API key>` the badge
// answers to `?share=<token>` of a live share link of the same experiment: whoever holds that
// link already sees the experiment's results, and the badge shows less (one metric's latest
// value). Without either it is 401, as every other call of the API.
import { db } from "../../db/client";
import { AppError } from "../../core/errors";
import { publicOrigin } from "../../http/public-origin";
import { ZBadgePath, ZBadgeQuery } from "../../schemas/check";
import { ZExperimentPath } from "../../schemas/comparison";
import { parseInput } from "../../schemas/validation";
import { authenticateApiKey } from "../../projects/api-keys";
import { apiKeyCache } from "../../projects/api-key-cache";
import { liveShareLinkTarget } from "../../reports/share-links";
import { badgeFor, badgeSvg } from "../../regressions/badge";
import { experimentForCheck } from "../../regressions/check";
import { errorResponse } from "./handler";

export async function getBadge(req: Request, params: { slugOrId: string; metric: string }): Promise<Response> {
  try {
    const url = new URL(req.url);
    const { slugOrId } = parseInput(ZExperimentPath, { slugOrId: params.slugOrId });
    const { metric } = parseInput(ZBadgePath, { metric: params.metric });
    const query = parseInput(ZBadgeQuery, Object.fromEntries(url.searchParams));
    let scope: { projectId: string; projectSlug: string };
    let sharedExperimentId: string | undefined;
    if (query.share !== undefined) {
      const target = await liveShareLinkTarget(db, query.share);
      // One answer for every token that does not open this experiment: nothing to probe.
      if (!target) throw new AppError("NOT_FOUND", "No live share link with that token (revoked, expired, a snapshot, or never made)");
      scope = target;
      sharedExperimentId = target.experimentId;
    } else {
      scope = await authenticateApiKey(db, req.headers.get("authorization"), apiKeyCache());
    }
    const experiment = await experimentForCheck(db, scope.projectId, slugOrId);
    if (sharedExperimentId !== undefined && experiment.id !== sharedExperimentId)
      throw new AppError("NOT_FOUND", `No experiment "${slugOrId}" behind this share link`);
    const badge = await badgeFor(db, { ...scope, baseUrl: publicOrigin(req.headers, req.url) }, experiment, { ...query, metric });
    return new Response(badgeSvg(badge), {
      headers: {
        "Content-Type": "image/svg+xml; charset=utf-8",
        // Shared badges sit in READMEs behind image proxies: cache a few minutes, as shields.io
        // does; a keyed answer is the caller's own.
        "Cache-Control": query.share !== undefined ? "public, max-age=300, stale-while-revalidate=60" : "private, max-age=60",
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
