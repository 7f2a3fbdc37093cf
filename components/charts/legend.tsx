// The variants' legend as HTML under the chart, so it wraps on a phone. Recharts measures it and
// leaves room; the data attributes let export-image.ts redraw it inside the exported SVG.
export interface LegendItem {
  name: string;
  color: string;
}

export function VariantLegend({ items }: { items: readonly LegendItem[] }) {
  return (
    <ul className="chart-legend">
      {items.map((item) => (
        <li key={item.name} data-legend-item="">
          <span className="swatch" data-legend-swatch="" style={{ background: item.color }} />
          <span data-legend-label="">{item.name}</span>
        </li>
      ))}
    </ul>
  );
}
