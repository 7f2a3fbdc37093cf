import { restRoute } from "~/server/api/rest/handler";
import { postImport } from "~/server/api/rest/imports";

export const dynamic = "force-dynamic";
export const POST = restRoute(postImport);
