import { useEffect, useId, useRef } from "react";
import type SignaturePad from "signature_pad";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";

const HEIGHT = 180;

/**
 * A drawn signature (signature_pad 5.1.4, loaded only on this page): touch, pen or mouse on the canvas, 'Borrar
 * firma' to start again, and for whoever cannot draw (a keyboard, a screen reader) 'Firmar con mi nombre escrito',
 * which writes the typed full name into the box. The PNG goes in a hidden input named after the question.
 */
export function SignatureField({
  name,
  label,
  help,
  error,
  value,
  typedName,
  onChange,
}: {
  name: string;
  label: string;
  help?: string;
  error?: string;
  value: string;
  typedName: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    let cancelled = false;
    const canvas = canvasRef.current;
    if (!canvas) return;
    void import("signature_pad").then(({ default: Pad }) => {
      if (cancelled) return;
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = HEIGHT * ratio;
      canvas.getContext("2d")?.scale(ratio, ratio);
      const pad = new Pad(canvas, {
        penColor: "#0f172a",
        backgroundColor: "rgb(255,255,255)",
        minWidth: 1,
        maxWidth: 2.6,
      });
      pad.addEventListener("endStroke", () => onChangeRef.current(pad.toDataURL("image/png")));
      padRef.current = pad;
    });
    return () => {
      cancelled = true;
      padRef.current?.off();
      padRef.current = null;
    };
  }, []);

  function clear() {
    padRef.current?.clear();
    onChange("");
  }

  function signWithTypedName() {
    const canvas = canvasRef.current;
    const context = canvas?.getContext("2d");
    if (!canvas || !context || !typedName.trim()) return;
    padRef.current?.clear();
    context.save();
    context.fillStyle = "#0f172a";
    context.font = "italic 32px Georgia, 'Times New Roman', serif";
    context.textBaseline = "middle";
    context.fillText(typedName.trim(), 16, HEIGHT / 2, canvas.offsetWidth - 32);
    context.restore();
    onChange(canvas.toDataURL("image/png"));
  }

  const describedBy = [`${id}-help`, error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className="space-y-2" data-testid={`firma-${name}`}>
      <p id={`${id}-label`} className="block text-sm font-medium text-slate-800">
        {label}
      </p>
      <p id={`${id}-help`} className="text-sm text-slate-600">
        {help ?? "Dibuje su firma en el recuadro."} Si no puede dibujarla, escriba su nombre completo arriba y
        use «Firmar con mi nombre escrito».
      </p>
      <canvas
        ref={canvasRef}
        role="img"
        aria-labelledby={`${id}-label`}
        aria-describedby={describedBy}
        className={cn(
          "block w-full touch-none rounded-lg border-2 border-dashed bg-white",
          error ? "border-red-700" : "border-slate-400",
        )}
        style={{ height: HEIGHT }}
      />
      <input type="hidden" name={name} value={value} />
      <p className="text-sm text-slate-700" aria-live="polite">
        {value ? "Firma registrada." : "Aún no ha firmado."}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={clear}>
          Borrar firma
        </Button>
        <Button type="button" variant="secondary" onClick={signWithTypedName} disabled={!typedName.trim()}>
          Firmar con mi nombre escrito
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
