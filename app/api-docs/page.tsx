import type { Metadata } from "next";
import { publicOrigin } from "~/app/_lib/public-origin";
import { Markdown } from "~/components/experiments/markdown";
import { buildOpenApiDocument } from "~/server/api/openapi";
import { importFormatDescriptions } from "~/server/schemas/import-formats";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "REST API" };

interface Operation {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { description: string }>;
}

export default async function ApiDocsPage() {
  const origin = await publicOrigin();
  const document = buildOpenApiDocument(origin) as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, unknown> };
  };

  return (
    <>
      <div className="page-head">
        <div>
          <h1>REST API</h1>
          <p>
            For scripts, CI and agents. Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1, generated from the same schemas
            that validate requests).
          </p>
        </div>
      </div>

      <section className="card" aria-labelledby="quick-start">
        <h2 id="quick-start">Quick start</h2>
        <p>Create an API key on a project&apos;s “API keys” page, then:</p>
        <pre className="block">{`export VERSUS_URL=${origin}
export VERSUS_API_KEY=vs_…

# a tool's own output
npx versus import jmh-result.json --format jmh --experiment json-codecs --create

# Versus's JSON format
npx versus upload results.json

# the same with curl
curl -X POST "$VERSUS_URL/api/v1/imports?format=gobench&experiment=gzip-levels&variant=level-6&create=true" \\
  -H "Authorization: Bearer $VERSUS_API_KEY" -H "Content-Type: text/plain" --data-binary @bench.txt`}</pre>
        <p className="muted small">
          Errors are <code>{`{"error": {"code", "message", "details"}}`}</code> with status 400 (bad input, each field named), 401 (key), 404, 405 (method; the{" "}
          <code>Allow</code> header lists the route&apos;s), 409, 413, 415 (media type) or 422; each operation below lists its own.
        </p>
      </section>

      <section className="card" aria-labelledby="formats">
        <h2 id="formats">Import formats</h2>
        <div className="table-wrap">
          <table aria-label="Import formats">
            <thead>
              <tr>
                <th>format=</th>
                <th>What to send</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(importFormatDescriptions).map(([name, description]) => (
                <tr key={name}>
                  <td>
                    <code>{name}</code>
                  </td>
                  <td>{description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      {Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => (
          <section key={`${method} ${path}`} className="card" aria-label={`${method.toUpperCase()} ${path}`}>
            {/* Long paths break inside the heading rather than widen a phone's page. */}
            <h2 className="api-path">
              <code>
                {method.toUpperCase()} {path}
              </code>
            </h2>
            {operation.summary ? <p style={{ marginTop: 0 }}>{operation.summary}</p> : null}
            {/* The OpenAPI document's descriptions are Markdown (CommonMark, as OpenAPI says). */}
            {operation.description ? (
              <div className="muted small">
                <Markdown>{operation.description}</Markdown>
              </div>
            ) : null}
            {operation.parameters?.length ? (
              <div className="table-wrap">
                <table aria-label="Parameters">
                  <thead>
                    <tr>
                      <th>Parameter</th>
                      <th>In</th>
                      <th>Required</th>
                      <th>Description</th>
                    </tr>
                  </thead>
                  <tbody>
                    {operation.parameters.map((parameter) => (
                      <tr key={`${parameter.in}-${parameter.name}`}>
                        <td>
                          <code>{parameter.name}</code>
                        </td>
                        <td>{parameter.in}</td>
                        <td>{parameter.required ? "yes" : "no"}</td>
                        <td className="small">{parameter.description ? <Markdown>{parameter.description}</Markdown> : describeSchema(parameter.schema)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
            {operation.requestBody ? (
              <details>
                <summary>Request body ({Object.keys(operation.requestBody.content).join(", ")})</summary>
                <pre className="block small">
                  {JSON.stringify(resolve(Object.values(operation.requestBody.content)[0]?.schema, document.components?.schemas), null, 2)}
                </pre>
              </details>
            ) : null}
            <h3 style={{ marginTop: "0.75rem" }}>Responses</h3>
            <ul className="small">
              {Object.entries(operation.responses).map(([status, response]) => (
                <li key={status} className="api-response">
                  <code>{status}</code> <Markdown>{response.description}</Markdown>
                </li>
              ))}
            </ul>
          </section>
        )),
      )}
    </>
  );
}

function describeSchema(schema: unknown): string {
  const s = schema as { enum?: string[]; type?: string } | undefined;
  if (s?.enum) return `one of ${s.enum.join(", ")}`;
  return s?.type ?? "";
}

/** Inlines a top-level $ref so the page shows the body's fields. */
function resolve(schema: unknown, components: Record<string, unknown> = {}): unknown {
  const ref = (schema as { $ref?: string } | undefined)?.$ref;
  return ref ? components[ref.split("/").pop() as string] : schema;
}
