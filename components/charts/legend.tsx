// The variants' legend as HTML under the chart, so it wraps on a phone. Recharts measures it and
// leaves room; the data attributes let export-image.ts redraw it inside the exported SVG.
export interface LegendItem {
  name: string;
  color: string;
  /** A dashed line's stroke-dasharray: the swatch is drawn as that line. */
  dash?: string;
}

export function VariantLegend({ items }: { items: readonly LegendItem[] }) {
  return (
    <ul className="chart-legend">
      {items.map((item) => (
        <li key={item.name} data-legend-item="">
          {item.dash ? (
            <svg className="swatch-line" data-legend-swatch="" width="22" height="10" aria-hidden="true">
              <line x1="0" y1="5" x2="22" y2="5" stroke={item.color} strokeWidth="2.5" strokeDasharray={item.dash} />
            </svg>
          ) : (
            <span className="swatch" data-legend-swatch="" style={{ background: item.color }} />
          )}
          <span data-legend-label="">{item.name}</span>
        </li>
      ))}
    </ul>
  );
}
