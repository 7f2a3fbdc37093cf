// Share links: an unguessable URL (/s/<token>) that shows one experiment's comparison to anyone
// holding it, read-only, without signing in. The token is shown once at creation and stored only
// as its SHA-256 (secret-tokens.ts). "live" recomputes from current data on every view;
// "snapshot" freezes what the comparison was when the link was made. Every management call is
// scoped to the caller's project: a link id from another project answers exactly like one that
// does not exist.
import { hashSecret, newSecret, secretStatus } from "../auth/secret-tokens";
import type { Db, Prisma } from "../db/client";
import { AppError } from "../core/errors";
import { ZShareView, ZSharedContent, type TSharedComparison } from "../schemas/share-link";
import { sharedContentOf } from "./shared-content";

export interface ShareScope {
  projectId: string;
}

const TOKEN_KIND = "vsh_";

async function experimentIn(db: Db, scope: ShareScope, experimentSlug: string) {
  const experiment = await db.experiment.findUnique({
    where: { projectId_slug: { projectId: scope.projectId, slug: experimentSlug } },
    select: { id: true, variants: { select: { name: true } } },
  });
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in this project`);
  return experiment;
}

export async function createShareLink(
  db: Db,
  scope: ShareScope,
  createdById: string,
  input: { experimentSlug: string; mode: "live" | "snapshot"; expiresAt: Date | null; baseline?: string },
) {
  const experiment = await experimentIn(db, scope, input.experimentSlug);
  const baseline = input.baseline ?? null;
  if (baseline !== null && !experiment.variants.some((v) => v.name === baseline)) {
    throw new AppError("UNPROCESSABLE", `No variant "${baseline}" to use as the baseline`, {
      fieldIssues: [{ path: ["baseline"], message: "not a variant of this experiment" }],
    });
  }
  // Computed before the row is written: a comparison that cannot be computed leaves no link.
  const snapshot = input.mode === "snapshot" ? await sharedContentOf(db, experiment.id, baseline) : null;
  const { secret, prefix, hash } = newSecret(TOKEN_KIND);
  const link = await db.shareLink.create({
    data: {
      projectId: scope.projectId,
      experimentId: experiment.id,
      tokenHash: hash,
      prefix,
      mode: input.mode,
      view: { baseline } satisfies Prisma.InputJsonObject,
      // The content is plain JSON by construction (ZSharedContent: strings, finite numbers,
      // booleans, null — no Date or BigInt), so it round-trips through jsonb unchanged.
      snapshot: snapshot === null ? undefined : (snapshot as Prisma.InputJsonObject),
      createdById,
      expiresAt: input.expiresAt,
    },
    select: { id: true, prefix: true, mode: true, createdAt: true, expiresAt: true },
  });
  // The only time the token leaves the server.
  return { ...link, token: secret, path: `/s/${secret}` };
}

export async function listShareLinks(db: Db, scope: ShareScope, experimentSlug?: string) {
  const experimentId = experimentSlug === undefined ? undefined : (await experimentIn(db, scope, experimentSlug)).id;
  const links = await db.shareLink.findMany({
    where: { projectId: scope.projectId, experimentId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      prefix: true,
      mode: true,
      view: true,
      createdAt: true,
      expiresAt: true,
      revokedAt: true,
      viewCount: true,
      lastViewedAt: true,
      createdBy: { select: { name: true, email: true } },
      experiment: { select: { slug: true, title: true } },
    },
  });
  const now = new Date();
  return links.map(({ view, ...link }) => ({ ...link, baseline: ZShareView.parse(view).baseline, status: secretStatus(link, now) }));
}

export async function revokeShareLink(db: Db, scope: ShareScope, linkId: string) {
  const { count } = await db.shareLink.updateMany({ where: { id: linkId, projectId: scope.projectId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw new AppError("NOT_FOUND", "No share link with that id that is not already revoked in this project");
}

/** A new expiry (or none) for a link that is not revoked; an expired link comes back to life. */
export async function setShareLinkExpiry(db: Db, scope: ShareScope, linkId: string, expiresAt: Date | null) {
  const { count } = await db.shareLink.updateMany({ where: { id: linkId, projectId: scope.projectId, revokedAt: null }, data: { expiresAt } });
  if (count === 0) throw new AppError("NOT_FOUND", "No share link with that id that is not revoked in this project");
}

/**
 * What /s/<token> shows, or null when the token is unknown, revoked or expired (the page then
 * answers 404 and says nothing about the experiment). Counting a view is the lookup itself: one
 * UPDATE … RETURNING on the token's unique index.
 */
export async function viewShareLink(db: Db, token: string, options: { countView: boolean }): Promise<TSharedComparison | null> {
  // Not even a database round trip for something that cannot be a share token.
  if (!token.startsWith(TOKEN_KIND) || token.length > 100) return null;
  const now = new Date();
  const where = { tokenHash: hashSecret(token), revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } satisfies Prisma.ShareLinkWhereInput;
  const select = { experimentId: true, mode: true, view: true, snapshot: true, createdAt: true } satisfies Prisma.ShareLinkSelect;
  const [link] = options.countView
    ? await db.shareLink.updateManyAndReturn({ where, data: { viewCount: { increment: 1 }, lastViewedAt: now }, select })
    : await db.shareLink.findMany({ where, select, take: 1 });
  if (!link) return null;
  if (link.mode === "snapshot") {
    return { ...ZSharedContent.parse(link.snapshot), mode: "snapshot", snapshotTakenAt: link.createdAt };
  }
  return { ...(await sharedContentOf(db, link.experimentId, ZShareView.parse(link.view).baseline)), mode: "live", snapshotTakenAt: null };
}

/**
 * The experiment a live share link shows, or null when the token is unknown, revoked, expired or
 * a snapshot's (a snapshot promises what the results were when it was made; a badge shows
 * today's). Used by the status badge, so a README can show one without an API key.
 */
export async function liveShareLinkTarget(db: Db, token: string): Promise<{ projectId: string; projectSlug: string; experimentId: string } | null> {
  if (!token.startsWith(TOKEN_KIND) || token.length > 100) return null;
  const now = new Date();
  const link = await db.shareLink.findFirst({
    where: { tokenHash: hashSecret(token), mode: "live", revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    select: { projectId: true, experimentId: true, project: { select: { slug: true } } },
  });
  return link && { projectId: link.projectId, projectSlug: link.project.slug, experimentId: link.experimentId };
}
