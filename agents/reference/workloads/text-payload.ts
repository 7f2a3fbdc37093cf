// Text-like payloads of a given size, the same for the same seed: an HTML e-mail body built from
// a small vocabulary, so gzip finds the repetition it finds in real templated text.
const WORDS = (
  "the order your account payment delivery invoice customer service update please confirm " +
  "shipping address total amount discount member coupon notice thank you for we have received " +
  "request details below status pending completed schedule today tomorrow week month contact " +
  "support team help center privacy policy terms unsubscribe settings profile password security"
).split(" ");
const TAGS = ["p", "td", "span", "li", "strong", "a"];

/** mulberry32: a tiny seeded generator; good enough to vary text, not for anything secret. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function textPayload(sizeBytes: number, seed: number): Buffer {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const parts: string[] = ["<html><body>"];
  let length = parts[0]!.length;
  while (length < sizeBytes) {
    const tag = pick(TAGS);
    const words = Array.from({ length: 3 + Math.floor(random() * 10) }, () => pick(WORDS));
    if (random() < 0.2) words.push(String(Math.floor(random() * 100_000)));
    const element = `<${tag} class="c${Math.floor(random() * 8)}">${words.join(" ")}</${tag}>\n`;
    parts.push(element);
    length += element.length;
  }
  // ASCII only, so characters are bytes and the cut lands exactly on sizeBytes.
  return Buffer.from(parts.join("").slice(0, sizeBytes), "ascii");
}
