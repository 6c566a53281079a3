import { CircleHelp } from "lucide-react";
import { lazy, Suspense, useState } from "react";

// The guide and the dialog library are a separate chunk fetched when first wanted: /auth is a public page with a
// JS budget (≤ 130 KiB gzip), and most visitors never open the help.
const loadGuide = () => import("./access-help-guide");
const AccessHelpGuide = lazy(() => loadGuide().then((module) => ({ default: module.AccessHelpGuide })));

/** The 'Ayuda' button and its modal guide (focus kept inside, Escape closes, focus returns to the button). */
export function AccessHelpDialog({ label }: { label: string }) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        onPointerEnter={() => void loadGuide()}
        onFocus={() => void loadGuide()}
        className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50"
        aria-haspopup="dialog"
      >
        <CircleHelp aria-hidden className="size-4" /> {label}
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <AccessHelpGuide open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
