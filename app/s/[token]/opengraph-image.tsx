// The preview image chat apps and social sites show for a share link: the experiment's title and
// its headline verdicts. Drawn with next/og's bundled font only (drawable-text.ts), so it needs no
// network. Fetching it is not a view of the page. A bad token gets a 404, no image.
import { TRPCError } from "@trpc/server";
import { ImageResponse } from "next/og";
import { drawableText } from "~/components/share/drawable-text";
import { formatDateTime } from "~/components/format";
import { api } from "~/app/_lib/trpc-server";

export const dynamic = "force-dynamic";
export const alt = "The verdicts of a performance comparison shared from Versus";
export const size = { width: 1200, height: 630 };
export const contentType = "image/png";

// Fixed colours: an image has no light or dark mode. The page's palette (app/globals.css).
const colour = { bg: "#f7f8fa", text: "#1b1f24", muted: "#5b6470", accent: "#2f5bd3", good: "#067647", danger: "#b42318", border: "#d9dee5" };
const verdictColour = { better: colour.good, worse: colour.danger, no_change: colour.muted, insufficient_data: colour.muted } as const;
// Two lines each at most; four fit under a two-line title.
const MAX_HEADLINES = 4;

export default async function Image({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const shared = await (await api()).share.view({ token, countView: false }).catch((error: unknown) => {
    if (error instanceof TRPCError && error.code === "BAD_REQUEST") return null; // a token no link can have
    throw error;
  });
  if (!shared) return new Response("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  const { experiment, headlines, mode, snapshotTakenAt } = shared;
  const title = drawableText(experiment.title, 90);
  const more = headlines.length - MAX_HEADLINES;

  return new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        background: colour.bg,
        color: colour.text,
        padding: "56px 64px",
        borderTop: `12px solid ${colour.accent}`,
      }}
    >
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", fontSize: 30, color: colour.muted }}>
        <div style={{ display: "flex", color: colour.text }}>
          <span>Ver</span>
          <span style={{ color: colour.accent }}>sus</span>
        </div>
        <div style={{ display: "flex" }}>{mode === "live" ? "Live comparison" : `Snapshot ${formatDateTime(snapshotTakenAt)}`}</div>
      </div>
      <div style={{ display: "flex", fontSize: title.length > 50 ? 54 : 66, lineHeight: 1.15, marginTop: 40 }}>{title}</div>
      <div style={{ display: "flex", flexDirection: "column", marginTop: 36, gap: 14 }}>
        {headlines.slice(0, MAX_HEADLINES).map((headline, index) => (
          <div key={index} style={{ display: "flex", alignItems: "flex-start", fontSize: 28, lineHeight: 1.3 }}>
            <div
              style={{
                display: "flex",
                width: 18,
                height: 18,
                borderRadius: 9,
                marginTop: 9,
                marginRight: 18,
                flexShrink: 0,
                background: headline.verdict ? verdictColour[headline.verdict] : colour.border,
              }}
            />
            <div style={{ display: "flex" }}>{drawableText(headline.text, 140)}</div>
          </div>
        ))}
        {more > 0 ? <div style={{ display: "flex", fontSize: 26, color: colour.muted, marginLeft: 36 }}>and {more} more</div> : null}
      </div>
    </div>,
    { ...size, headers: { "Cache-Control": "private, no-store" } },
  );
}
