// Says what kind of link the reader is looking at: live figures move with new runs; a snapshot
// is what the comparison was when the link was made.
import { formatDateTime } from "~/components/format";

export function SharedLabel({ mode, snapshotTakenAt }: { mode: "live" | "snapshot"; snapshotTakenAt: Date | null }) {
  return mode === "live" ? (
    <span className="badge accent" title="Recomputed from the experiment's latest runs on every visit">
      live
    </span>
  ) : (
    <span className="badge" title="The comparison as it was when this link was made; later runs do not change it">
      snapshot taken {formatDateTime(snapshotTakenAt)}
    </span>
  );
}
