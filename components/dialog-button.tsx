"use client";
// A button that opens a modal dialog (the native <dialog>): a title, a close button, and
// contents mounted only while it is open, so each opening starts afresh (a secret shown once is
// gone once it closes). A click on the backdrop closes it too.
import { useEffect, useRef, useState, type ReactNode } from "react";

interface Props {
  label: string;
  /** The dialog's heading. */
  title: string;
  /** Unique on the page: the heading's id is made from it. */
  id: string;
  buttonClassName?: string;
  /** What the dialog shows; `close` closes it. */
  children: (close: () => void) => ReactNode;
}

export function DialogButton({ label, title, id, buttonClassName = "button", children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  // The element follows the state (Escape closes it by itself, and onClose tells the state).
  useEffect(() => {
    const element = dialog.current;
    if (open && element && !element.open) element.showModal();
    if (!open && element?.open) element.close();
  }, [open]);
  return (
    <>
      <button type="button" className={buttonClassName} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {label}
      </button>
      <dialog
        ref={dialog}
        className="dialog"
        aria-labelledby={`${id}-title`}
        onClose={() => setOpen(false)}
        // A click on the backdrop (the dialog element itself, outside its box) closes it.
        onClick={(event) => {
          if (event.target === dialog.current) close();
        }}
      >
        <div className="dialog-box">
          <div className="dialog-head">
            <h2 id={`${id}-title`}>{title}</h2>
            <button type="button" className="button small" onClick={close} aria-label="Close">
              ✕
            </button>
          </div>
          {open ? children(close) : null}
        </div>
      </dialog>
    </>
  );
}
