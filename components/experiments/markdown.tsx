import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";

/** User-written Markdown (experiment descriptions). Raw HTML is not rendered. */
export function Markdown({ children }: { children: string }) {
  return (
    <div className="prose">
      <ReactMarkdown remarkPlugins={[remarkGfm]}>{children}</ReactMarkdown>
    </div>
  );
}
