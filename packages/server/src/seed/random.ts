/**
 * Deterministic randomness and small value helpers shared by the demo and scale
 * fleets. Every seeded value comes from an {@link Rng} with a fixed seed and from
 * {@link BASE_DATE}, never from `Math.random()` or `Date.now()`, so two runs of the
 * seed write the same rows (only sealed passwords differ: their IV is random).
 */

/** The fixed "now" of the seeded fleet: creation, expiry and commit times are relative to it. */
export const BASE_DATE = new Date('2026-11-01T00:00:00Z');

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A seeded pseudo-random generator (mulberry32): fast, 32-bit state, same sequence per seed. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p` (0..1). */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Rng.pick on an empty list');
    return item;
  }

  /** One element, weighted: `[[value, weight], ...]` with positive weights. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = choices[choices.length - 1];
    if (!last) throw new Error('Rng.weighted on an empty list');
    return last[0];
  }

  /** `count` distinct elements (all of them when the list is shorter), in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, Math.min(count, copy.length));
  }

  /** `length` lowercase hexadecimal digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 0x1_0000_0000).toString(16).padStart(8, '0');
    return out.slice(0, length);
  }

  /** A password of letters, digits and a symbol, as an operator would hand out. */
  password(): string {
    const letters = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
    let out = '';
    for (let i = 0; i < 10; i++) out += letters[this.int(0, letters.length - 1)];
    return `${out}${this.int(10, 99)}${this.pick(['!', '#', '%', '*', '?'])}`;
  }
}

/** `days` days (fractions allowed) before `from` (default {@link BASE_DATE}). */
export function daysBefore(days: number, from: Date = BASE_DATE): Date {
  return new Date(from.getTime() - Math.round(days * DAY_MS));
}

/** `days` days (fractions allowed) after `from` (default {@link BASE_DATE}). */
export function daysAfter(days: number, from: Date = BASE_DATE): Date {
  return new Date(from.getTime() + Math.round(days * DAY_MS));
}

/** `hours` hours after `from`. */
export function hoursAfter(hours: number, from: Date): Date {
  return new Date(from.getTime() + Math.round(hours * HOUR_MS));
}

/**
 * The URL name derived from a display name (spec 1 §5): lowercase, spaces and
 * hyphens removed, non-word characters removed.
 */
export function urlFriendly(name: string): string {
  return name.toLowerCase().replace(/[\s-]+/g, '').replace(/\W/g, '');
}

/**
 * Hands out unique strings: the wanted one when free, else the wanted one with a
 * numeric suffix (`{base}{sep}2`, `{base}{sep}3`, ...).
 */
export class UniqueNames {
  private readonly taken = new Set<string>();

  constructor(private readonly sep: string = ' ') {}

  has(name: string): boolean {
    return this.taken.has(name);
  }

  claim(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.taken.has(name); n++) name = `${wanted}${this.sep}${n}`;
    this.taken.add(name);
    return name;
  }
}
