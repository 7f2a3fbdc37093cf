// The badge of an example experiment, by what its runs are (server/experiments/example-notice.ts):
// "example data" only while its runs are the seeded ones.
import { exampleNotice, type RunOrigins } from "~/server/experiments/example-notice";

export function ExampleBadge({ isExample, origins }: { isExample: boolean; origins: RunOrigins }) {
  const notice = exampleNotice(isExample, origins);
  if (!notice) return null;
  return (
    <>
      {" "}
      <span className="badge accent" data-testid="example-badge">
        {notice.badge}
      </span>
    </>
  );
}
