// What a submitted form says above its fields: done (a status) or refused (an alert).
export interface FormOutcome {
  ok: boolean;
  message: string;
}

export function FormResult({ result }: { result: FormOutcome | undefined }) {
  if (!result) return null;
  return (
    <div className={result.ok ? "secret" : "alert"} role={result.ok ? "status" : "alert"}>
      {result.message}
    </div>
  );
}
