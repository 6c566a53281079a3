/** Why a clinic's link to a conversation did not open it (issue 24, item 20): shown above the page, in Spanish. */
export function ChatLinkNotice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="mx-auto max-w-6xl px-4 pt-4">
      <p
        role="alert"
        data-testid="chat-link-notice"
        className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
      >
        {message}
      </p>
    </div>
  );
}
