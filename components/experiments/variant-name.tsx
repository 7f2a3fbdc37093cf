// A variant name that may break after its separators ("SPRING_/JSON", "codec_hex/size=16") when a
// narrow table needs it, and nowhere else: benchmark names are long runs of words joined by
// punctuation, and breaking them mid-word ("afterburn-er") reads badly.
import { Fragment } from "react";

export function VariantName({ name }: { name: string }) {
  const parts = name.split(/(?<=[/_.:=,-])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
