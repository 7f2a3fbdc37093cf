/** The "Remove" button at the end of a repeated form row (parameter, variant, metric). */
export function RemoveRowButton({ what, index, onRemove }: { what: string; index: number; onRemove: () => void }) {
  return (
    <div className="row-remove">
      <button type="button" className="button small danger" onClick={onRemove} aria-label={`Remove ${what} ${index + 1}`}>
        Remove
      </button>
    </div>
  );
}
