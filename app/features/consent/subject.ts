/**
 * A data subject: the person a consent, a restriction or a privacy request is about. An account holder has a user id;
 * anyone is also known by the e-mails (lower case) and phones (E.164, `+569XXXXXXXX`) proven or recorded for them.
 */
export type DataSubject = {
  userId: string | null;
  emails: string[];
  phones: string[];
};

/** The subject of one account, or of one contact, with e-mail lower-cased and duplicates dropped. */
export function dataSubject(input: {
  userId?: string | null;
  emails?: Array<string | null | undefined>;
  phones?: Array<string | null | undefined>;
}): DataSubject {
  const emails = [...new Set((input.emails ?? []).flatMap((e) => (e ? [e.trim().toLowerCase()] : [])))];
  const phones = [...new Set((input.phones ?? []).flatMap((p) => (p ? [p.trim()] : [])))];
  return { userId: input.userId ?? null, emails, phones };
}

/** True when the subject names nobody: no account, no e-mail, no phone. */
export function isEmptySubject(subject: DataSubject): boolean {
  return subject.userId === null && subject.emails.length === 0 && subject.phones.length === 0;
}
