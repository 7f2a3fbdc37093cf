import Link from "next/link";
import { Fragment } from "react";

/** Trail from "Projects" down to the current page; the last item is plain text. */
export function Breadcrumbs({ items }: { items: { label: string; href?: string }[] }) {
  const trail = [{ label: "Projects", href: "/" }, ...items];
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      {trail.map((item, index) => (
        <Fragment key={`${index}-${item.label}`}>
          {index > 0 ? <span aria-hidden="true">/</span> : null}
          {item.href && index < trail.length - 1 ? (
            <Link href={item.href}>{item.label}</Link>
          ) : (
            <span aria-current={index === trail.length - 1 ? "page" : undefined}>{item.label}</span>
          )}
        </Fragment>
      ))}
    </nav>
  );
}
