// Chart images for download and for the Markdown report: an <svg> drawn by Recharts becomes a
// standalone SVG file (computed colours and fonts written onto each element, since the file has
// no stylesheet and no CSS variables; a background rect, so it reads in viewers with a dark or
// transparent canvas; the HTML legend redrawn as SVG) or a PNG rendered from that SVG.

/** Inherited properties that decide how SVG content looks; written where an element's differs from its parent's. */
const INHERITED = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-dasharray",
  "stroke-linecap",
  "stroke-linejoin",
  "visibility",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
] as const;

const SVG_NS = "http://www.w3.org/2000/svg";

function sizeOf(svg: SVGSVGElement): { width: number; height: number } {
  const box = svg.getBoundingClientRect();
  const width = box.width || Number(svg.getAttribute("width")) || 600;
  const height = box.height || Number(svg.getAttribute("height")) || 300;
  return { width: Math.round(width), height: Math.round(height) };
}

/** The colour the chart is drawn on: the nearest ancestor with a background that is not transparent. */
function backgroundOf(element: Element): string {
  for (let node: Element | null = element; node; node = node.parentElement) {
    const color = getComputedStyle(node).backgroundColor;
    if (color && color !== "transparent" && !/rgba\(.*,\s*0\)$/.test(color)) return color;
  }
  return "#ffffff";
}

/**
 * Writes the computed look onto the copy: inherited properties where they differ from the parent
 * (the root gets them all), opacity and display:none where set. Presentation attributes that name
 * a CSS variable are dropped — the written style carries their value — so the file resolves alone.
 */
function inlineStyles(source: Element, target: Element, parent: CSSStyleDeclaration | null) {
  const computed = getComputedStyle(source);
  const declarations: string[] = [];
  for (const property of INHERITED) {
    const value = computed.getPropertyValue(property);
    if (!parent || parent.getPropertyValue(property) !== value) declarations.push(`${property}:${value}`);
  }
  if (computed.opacity !== "1") declarations.push(`opacity:${computed.opacity}`);
  if (computed.display === "none") declarations.push("display:none");
  for (const attribute of [...target.attributes]) if (attribute.value.includes("var(")) target.removeAttribute(attribute.name);
  if (declarations.length > 0) target.setAttribute("style", declarations.join(";"));
  else target.removeAttribute("style");
}

/** The legend is HTML beside the <svg> (so it can wrap); draw its items into the copy where they appear. */
function drawLegend(svg: SVGSVGElement, copy: SVGSVGElement) {
  const origin = svg.getBoundingClientRect();
  const items = svg.parentElement?.querySelectorAll("[data-legend-item]") ?? [];
  for (const item of items) {
    const swatch = item.querySelector("[data-legend-swatch]");
    const label = item.querySelector("[data-legend-label]");
    if (!swatch || !label) continue;
    const s = swatch.getBoundingClientRect();
    const l = label.getBoundingClientRect();
    const rect = swatchShape(swatch, s.left - origin.left, s.top - origin.top, s.width, s.height);
    const text = document.createElementNS(SVG_NS, "text");
    const style = getComputedStyle(label);
    text.setAttribute("x", String(l.left - origin.left));
    text.setAttribute("y", String(l.top - origin.top + l.height / 2));
    text.setAttribute(
      "style",
      `fill:${style.color};font-family:${style.fontFamily};font-size:${style.fontSize};font-weight:${style.fontWeight};dominant-baseline:central`,
    );
    text.textContent = label.textContent;
    copy.append(rect, text);
  }
}

/** A swatch as drawn: a filled square, or a dashed line (a probe's, target-overlay-chart.tsx) with its dashes. */
function swatchShape(swatch: Element, x: number, y: number, width: number, height: number): SVGElement {
  const line = swatch.querySelector("line");
  if (line) {
    const shape = document.createElementNS(SVG_NS, "line");
    const style = getComputedStyle(line);
    shape.setAttribute("x1", String(x));
    shape.setAttribute("x2", String(x + width));
    shape.setAttribute("y1", String(y + height / 2));
    shape.setAttribute("y2", String(y + height / 2));
    shape.setAttribute("stroke", style.stroke);
    shape.setAttribute("stroke-width", style.strokeWidth);
    shape.setAttribute("stroke-dasharray", line.getAttribute("stroke-dasharray") ?? "");
    return shape;
  }
  const rect = document.createElementNS(SVG_NS, "rect");
  rect.setAttribute("x", String(x));
  rect.setAttribute("y", String(y));
  rect.setAttribute("width", String(width));
  rect.setAttribute("height", String(height));
  rect.setAttribute("rx", "2");
  rect.setAttribute("fill", getComputedStyle(swatch).backgroundColor);
  return rect;
}

/** A standalone SVG document of a chart, as text. */
export function svgToString(svg: SVGSVGElement): string {
  const { width, height } = sizeOf(svg);
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const sources = [svg, ...svg.querySelectorAll("*")];
  const targets = [copy, ...copy.querySelectorAll("*")];
  sources.forEach((source, i) => {
    const target = targets[i];
    const parent = source === svg || !source.parentElement ? null : getComputedStyle(source.parentElement);
    if (target) inlineStyles(source, target, parent);
  });
  // Hover and focus decorations are not part of the chart.
  for (const transient of copy.querySelectorAll(".recharts-tooltip-cursor, .recharts-active-dot")) transient.remove();
  copy.setAttribute("xmlns", SVG_NS);
  copy.setAttribute("width", String(width));
  copy.setAttribute("height", String(height));
  if (!copy.getAttribute("viewBox")) copy.setAttribute("viewBox", `0 0 ${width} ${height}`);
  for (const attribute of ["tabindex", "role"]) copy.removeAttribute(attribute);
  const background = document.createElementNS(SVG_NS, "rect");
  background.setAttribute("width", "100%");
  background.setAttribute("height", "100%");
  background.setAttribute("fill", backgroundOf(svg));
  copy.insertBefore(background, copy.firstChild);
  drawLegend(svg, copy);
  return new XMLSerializer().serializeToString(copy);
}

/** The chart as a PNG, `scale` device pixels per CSS pixel (2: sharp on high-density screens and in print). */
export async function svgToPngBlob(svg: SVGSVGElement, scale = 2): Promise<Blob> {
  const { width, height } = sizeOf(svg);
  const image = new Image();
  // A data: URL (not a blob: URL) keeps the canvas untainted in every browser.
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgToString(svg))}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext("2d");
  if (!context) throw new Error("this browser cannot draw on a canvas");
  context.scale(scale, scale);
  context.drawImage(image, 0, 0, width, height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the PNG could not be encoded"))), "image/png"));
}

/** Saves a blob under `fileName` through the browser's download. */
export function downloadBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the time this runs; revoking at once can cancel it in Firefox.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
