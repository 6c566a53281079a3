import { useRef, useState, useSyncExternalStore } from "react";

/** Dictation into the composer with the browser's speech recognition (es-CL), where it has one; never faked. */
interface SpeechRecognitionLike {
  lang: string;
  interimResults: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onend: (() => void) | null;
  onerror: (() => void) | null;
  start(): void;
  stop(): void;
}

/** The browser's speech recognition, if it has one (Chromium's is prefixed). */
function speechRecognition(): (new () => SpeechRecognitionLike) | undefined {
  const scope = window as unknown as {
    SpeechRecognition?: new () => SpeechRecognitionLike;
    webkitSpeechRecognition?: new () => SpeechRecognitionLike;
  };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
}

const subscribeNothing = () => () => {};

export function useDictation(options: {
  onText: (text: string) => void;
  onError: (message: string) => void;
}) {
  /** Known only in the browser: the server renders no mic button. */
  const available = useSyncExternalStore(
    subscribeNothing,
    () => Boolean(speechRecognition()),
    () => false,
  );
  const [listening, setListening] = useState(false);
  const recognition = useRef<SpeechRecognitionLike | null>(null);

  const toggle = () => {
    if (listening) {
      recognition.current?.stop();
      return;
    }
    const Recognition = speechRecognition();
    if (!Recognition) return;
    const recognizer = new Recognition();
    recognizer.lang = "es-CL";
    recognizer.interimResults = false;
    recognizer.onresult = (event) => {
      const transcript = Array.from(event.results)
        .map((result) => result[0]?.transcript ?? "")
        .join(" ")
        .trim();
      if (transcript) options.onText(transcript);
    };
    recognizer.onend = () => setListening(false);
    recognizer.onerror = () =>
      options.onError("No se pudo usar el micrófono. Revisa los permisos del navegador.");
    recognition.current = recognizer;
    setListening(true);
    recognizer.start();
  };

  return { available, listening, toggle };
}
