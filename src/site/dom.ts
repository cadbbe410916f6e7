import { counted as countOf } from "../text/wording";

/**
 * A few DOM helpers. Text always goes in through textContent (never innerHTML): intents, names
 * and tags are other people's strings and are shown verbatim, as text.
 */
type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (key === "class") node.className = String(value);
    else if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`missing #${id}`);
  return node as T;
}

/** One formatter for the page: `toLocaleString` builds a new one on every call (costly in a table). */
const INTEGER = new Intl.NumberFormat("en-US");

export function formatInt(n: number): string {
  return INTEGER.format(n);
}

/** "1 ring", "1,204 tiles": a count with its noun, worded as the server words one, the number with separators. */
export function counted(n: number, noun: string): string {
  return countOf(n, noun, formatInt);
}

export function formatTime(ms: number): string {
  const d = new Date(ms);
  return d.toISOString().slice(11, 19);
}

export function shortHash(hash: string): string {
  return hash.length > 16 ? `${hash.slice(0, 12)}…` : hash;
}

/** Limits how often a function runs (the tables refresh at a few Hz, not on every event). */
export function throttle(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = 0;
  return () => {
    if (timer) return;
    const wait = Math.max(0, last + ms - performance.now());
    timer = setTimeout(() => {
      timer = null;
      last = performance.now();
      fn();
    }, wait);
  };
}

/**
 * Collects items and hands them over together, at most every `ms` (the first a frame after the
 * quiet spell before it): a panel fed by every live message redraws a few times a second, not
 * once per message.
 */
export function batched<T>(fn: (items: T[]) => void, ms: number): { push(items: readonly T[]): void } {
  let pending: T[] = [];
  const flush = throttle(() => {
    const items = pending;
    pending = [];
    if (items.length) fn(items);
  }, ms);
  return {
    push(items) {
      if (!items.length) return;
      pending.push(...items);
      flush();
    },
  };
}
