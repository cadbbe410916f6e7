/**
 * The archive's events as the auditor reads them: by index, parsed when asked. A full day's log is
 * tens of MB of JSON and about a million small objects once parsed; the checks walk it in order,
 * so holding the text and parsing one event at a time keeps an audit's memory to the text, the
 * tiles and the referee. A plain array of events is an `EventLog` too (tests, small archives).
 */
import type { Archive, ArchiveEvent } from "../archive/format";

export interface EventLog {
  readonly length: number;
  /** The event at `index` (0-based: revision index + 1), or undefined past the end. */
  at(index: number): ArchiveEvent | undefined;
}

/** An archive as the checks take it: its events behind an `EventLog`. */
export type AuditedArchive = Omit<Archive, "events"> & { events: EventLog };

/** Events parsed on demand from spans of one JSON text. */
export class TextEventLog implements EventLog {
  constructor(
    private readonly text: string,
    /** Start and end offsets of each event's JSON, in pairs. */
    private readonly spans: Float64Array,
    /** The `grow` events, parsed once when the log was read. */
    readonly grows: ArchiveEvent[],
  ) {}

  get length(): number {
    return this.spans.length / 2;
  }

  at(index: number): ArchiveEvent | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    return JSON.parse(this.text.slice(this.spans[2 * index], this.spans[2 * index + 1])) as ArchiveEvent;
  }
}

/** The `grow` events in log order. */
export function growEvents(log: EventLog): ArchiveEvent[] {
  if (log instanceof TextEventLog) return log.grows;
  const grows: ArchiveEvent[] = [];
  for (let i = 0; i < log.length; i++) {
    const e = log.at(i)!;
    if (e.type === "grow") grows.push(e);
  }
  return grows;
}
