import { getDb } from "~/db/client.server";
import { logger } from "~/lib/base/logger.server";
import { subscribeRoom, subscribeRoomDeltas, type AgentDelta } from "./chat-hub.server";
import { roomUpdatesAfter, type ChatMessageRow } from "./chat-repository.server";

/**
 * One in-process feed per room (and per audience: the patient's feed never reads internal notes). On a wake the
 * feed reads the room's new messages once — after the highest `seq` it has delivered — and pushes them to every
 * stream of the room, instead of every stream re-reading the room. Wakes that arrive while a read runs are
 * coalesced into one follow-up read.
 *
 * A stream joins with its own cursor (`Last-Event-ID`): it is subscribed first, so nothing the feed reads from then
 * on escapes it, then it reads its own backlog once while the feed's pushes wait in its buffer; the buffer is then
 * flushed through the stream's cursor, which drops what the backlog already sent. Nothing is shared as a promise:
 * a failed read closes the streams it was for (their clients reconnect and resume with `Last-Event-ID`) and the
 * feed goes away, so no stream waits on anything that may never settle.
 */
export interface FeedReader {
  /** The room's status and its messages after `afterSeq` (at most READ_LIMIT; a full page means there may be more). */
  read(
    roomId: string,
    afterSeq: number,
    includeNotes: boolean,
  ): Promise<{ rows: readonly ChatMessageRow[]; status: string | undefined }>;
}

/** What a stream does with the feed's output: rows in `seq` order, never twice; `close` ends it. */
export interface FeedSink {
  messages(rows: readonly ChatMessageRow[]): void;
  status(status: string): void;
  /** A piece of the agent's streamed reply (transient; only the patient's feed relays them). */
  delta?(delta: AgentDelta): void;
  close(error?: unknown): void;
}

export const READ_LIMIT = 500;

// One statement per read: the messages and the room's status together.
const repositoryReader: FeedReader = {
  read: async (roomId, afterSeq, includeNotes) =>
    roomUpdatesAfter(await getDb(), roomId, afterSeq, { includeNotes, limit: READ_LIMIT }),
};

type Batch = { rows: readonly ChatMessageRow[]; status: string | undefined };

class Member {
  cursor: number;
  /** Pushes held while the member reads its own backlog; undefined once it is live. */
  pending: Batch[] | undefined = [];
  closed = false;

  constructor(
    afterSeq: number,
    readonly sink: FeedSink,
  ) {
    this.cursor = afterSeq;
  }

  deliver(batch: Batch) {
    if (this.closed) return;
    if (this.pending) {
      this.pending.push(batch);
      return;
    }
    const fresh = batch.rows.filter((row) => row.seq > this.cursor);
    if (fresh.length) {
      this.cursor = fresh.at(-1)!.seq;
      this.sink.messages(fresh);
    }
    if (batch.status !== undefined) this.sink.status(batch.status);
  }

  deliverDelta(delta: AgentDelta) {
    if (this.closed) return;
    try {
      this.sink.delta?.(delta);
    } catch {
      // a draft piece is a courtesy; the stored reply follows
    }
  }

  goLive() {
    const held = this.pending ?? [];
    this.pending = undefined;
    for (const batch of held) this.deliver(batch);
  }

  close(error?: unknown) {
    if (this.closed) return;
    this.closed = true;
    this.pending = undefined;
    this.sink.close(error);
  }
}

class RoomFeed {
  readonly members = new Set<Member>();
  private reading = false;
  private again = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly roomId: string,
    private readonly includeNotes: boolean,
    /** The highest seq pushed so far. */
    private seq: number,
    private readonly reader: FeedReader,
    private readonly onEmpty: (feed: RoomFeed) => void,
  ) {
    const unsubscribeMessages = subscribeRoom(roomId, () => void this.read());
    const unsubscribeDeltas = includeNotes
      ? () => {}
      : subscribeRoomDeltas(roomId, (delta) => {
          for (const member of this.members) member.deliverDelta(delta);
        });
    this.unsubscribe = () => {
      unsubscribeMessages();
      unsubscribeDeltas();
    };
  }

  remove(member: Member) {
    if (!this.members.delete(member)) return;
    if (this.members.size === 0) this.dispose();
  }

  private disposed = false;

  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.unsubscribe();
    this.onEmpty(this);
  }

  async read(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.again = false;
        const rows: ChatMessageRow[] = [];
        let status: string | undefined;
        for (;;) {
          const page = await this.reader.read(this.roomId, this.seq, this.includeNotes);
          rows.push(...page.rows);
          status = page.status;
          if (page.rows.length) this.seq = page.rows.at(-1)!.seq;
          if (page.rows.length < READ_LIMIT) break;
        }
        const batch = { rows, status };
        for (const member of this.members) {
          try {
            member.deliver(batch);
          } catch (error) {
            this.remove(member);
            member.close(error);
          }
        }
      } while (this.again && this.members.size > 0);
    } catch (error) {
      logger.error({ err: error, roomId: this.roomId }, "chat room feed read failed");
      // Every stream of the room ends (its client resumes from its Last-Event-ID); a new feed starts on the next join.
      const members = [...this.members];
      this.members.clear();
      this.dispose();
      for (const member of members) member.close(error);
    } finally {
      this.reading = false;
    }
  }
}

export function createRoomFeeds(reader: FeedReader = repositoryReader) {
  const feeds = new Map<string, RoomFeed>();

  /** Subscribes a stream to the room after `afterSeq`; returns the unsubscribe. */
  function join(roomId: string, afterSeq: number, includeNotes: boolean, sink: FeedSink): () => void {
    const key = `${includeNotes ? "staff" : "guest"}:${roomId}`;
    const member = new Member(afterSeq, sink);
    const existing = feeds.get(key);
    const feed =
      existing ??
      // The first stream's cursor is the feed's: the feed's first read is that stream's backlog.
      new RoomFeed(roomId, includeNotes, afterSeq, reader, (gone) => {
        if (feeds.get(key) === gone) feeds.delete(key);
      });
    feeds.set(key, feed);
    feed.members.add(member);
    const leave = () => {
      member.closed = true;
      member.pending = undefined;
      feed.remove(member);
    };
    if (!existing) {
      member.goLive();
      void feed.read();
      return leave;
    }
    // Joined after the feed's start: the stream's own backlog once (the feed's pushes wait meanwhile), then live.
    void (async () => {
      try {
        let status: string | undefined;
        for (;;) {
          const page = await reader.read(roomId, member.cursor, includeNotes);
          if (member.closed) return;
          status = page.status;
          if (page.rows.length) {
            member.cursor = page.rows.at(-1)!.seq;
            sink.messages(page.rows);
          }
          if (page.rows.length < READ_LIMIT) break;
        }
        if (status !== undefined) sink.status(status);
        member.goLive();
      } catch (error) {
        logger.error({ err: error, roomId }, "chat stream backlog read failed");
        feed.remove(member);
        member.close(error);
      }
    })();
    return leave;
  }

  return {
    join,
    /** Open feeds (tests and the bench check that closed streams leave nothing behind). */
    size: () => feeds.size,
  };
}

export const roomFeeds = createRoomFeeds();
