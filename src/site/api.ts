/** The public JSON API (docs/api.md), read with plain fetch from the same origin. */

export interface GameSummary {
  game_id: string;
  status: string;
  revision: number;
  G: number;
  tiles: number;
  grown?: number;
  fog?: boolean;
  agents?: string[];
  agents_total?: number;
  kind?: string;
}

export interface ArchiveSummary {
  day: string;
  game_id: string;
  url: string;
  bytes: number;
  log_head: { hash: string; rev: number };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { ...init, headers: { accept: "application/json", ...(init?.headers ?? {}) } });
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      const body = (await res.json()) as { error?: { message?: string } | string };
      message = typeof body.error === "string" ? body.error : (body.error?.message ?? message);
    } catch {
      // not JSON: keep the status line
    }
    throw new ApiError(res.status, message);
  }
  return (await res.json()) as T;
}

/** Unwraps `{key: [...]}` or a bare array. */
function listOf<T>(body: unknown, key: string): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === "object" && Array.isArray((body as Record<string, unknown>)[key])) return (body as Record<string, T[]>)[key];
  return [];
}

export async function listGames(): Promise<GameSummary[]> {
  return listOf<GameSummary>(await getJson("/api/games"), "games");
}

export async function listArchives(): Promise<ArchiveSummary[]> {
  return listOf<ArchiveSummary>(await getJson("/api/archives"), "archives");
}

export function gamePath(gameId: string, rest = ""): string {
  return `/api/games/${encodeURIComponent(gameId)}${rest}`;
}
