import { restRoute } from "~/server/api/rest/handler";
import { postResults } from "~/server/api/rest/results";

export const dynamic = "force-dynamic";
export const POST = restRoute(postResults);
