"use client";
// The Remove button of a list or map row and the Add button under them (list-editor.tsx,
// map-editor.tsx), named for screen readers by the setting and the row.

export function RemoveRowButton({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <button type="button" className="button small" aria-label={label} onClick={onRemove}>
      Remove
    </button>
  );
}

export function AddRowButton({ label, text, onAdd }: { label: string; text: string; onAdd: () => void }) {
  return (
    <div>
      <button type="button" className="button small" aria-label={label} onClick={onAdd}>
        {text}
      </button>
    </div>
  );
}
