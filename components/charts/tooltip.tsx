// The tooltip box in the theme's colours; each chart passes its own lines.
import type { ReactNode } from "react";

export function TooltipBox({ title, lines }: { title: ReactNode; lines: readonly ReactNode[] }) {
  return (
    <div className="chart-tooltip">
      <p>
        <strong>{title}</strong>
      </p>
      {lines.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </div>
  );
}
