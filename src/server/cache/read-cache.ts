import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../clock.js';
import type { Change } from './changes.js';
import { mustReadFresh } from './fresh-reads.js';

/** Every entry of a region, rather than a list of keys. */
export const ALL = 'all';

export interface RegionOptions<T> {
  /** The keys of this region a change makes stale ([] when it cannot affect the region). */
  staleAfter: (change: Change) => readonly string[] | typeof ALL;
  /** About how many bytes an entry holds; by default the length of its JSON. */
  bytes?: (value: T) => number;
}

/** One kind of cached read (public user rows, post pages, ...): get() computes on a miss. */
export interface Region<T> {
  get(key: string, compute: () => Promise<T>): Promise<T>;
}

interface RegionState {
  name: string;
  options: RegionOptions<unknown>;
  /** Bumped when a change makes every entry stale: old keys are then never asked for again. */
  generation: number;
}

/**
 * The one cache of a process: every region shares one LRU, bounded in bytes (lru-cache).
 *
 * Shared reads only: an entry must be the same for every viewer. What depends on the viewer
 * (their own posts left out of the feed, later blocked users) is applied per request to the
 * shared entry, so a per-viewer rule composes with a cached page instead of multiplying it.
 *
 * Simultaneous misses of one key share one computation. A change that makes a key stale while
 * it is being computed drops that computation's result (it may have read the old data): the
 * next read computes again. A failed computation is not remembered.
 */
export class ReadCache {
  private readonly lru: LRUCache<string, { value: unknown }>;
  private readonly pending = new Map<string, Promise<unknown>>();
  private readonly regions: RegionState[] = [];
  /** While this process may be missing changes (its notifications are cut off): no caching. */
  private suspended = false;
  private readonly ttlMs: number;

  /**
   * ttlMs: how long any entry may be shared, a safety net only (changes are what make entries
   * stale); 0 turns caching off.
   */
  constructor({ maxBytes, ttlMs, now = systemClock }: { maxBytes: number; ttlMs: number; now?: Clock }) {
    this.ttlMs = ttlMs;
    this.lru = new LRUCache({
      maxSize: Math.max(1, maxBytes),
      // Each entry's size and time to live are given when it is stored (its region's).
      sizeCalculation: () => 1,
      perf: { now },
      // Read the clock on every check: a test clock moves in steps.
      ttlResolution: 0,
    });
  }

  region<T>(name: string, options: RegionOptions<T>): Region<T> {
    const state: RegionState = { name, options: options as RegionOptions<unknown>, generation: 0 };
    this.regions.push(state);
    const bytes = options.bytes ?? ((value: T) => JSON.stringify(value)?.length ?? 16);
    return {
      get: async (key, compute) => {
        if (!this.caching) return compute();
        const id = this.id(state, key);
        const hit = this.lru.get(id);
        if (hit) return hit.value as T;
        const inFlight = this.pending.get(id);
        if (inFlight) return inFlight as Promise<T>;
        const computing = compute();
        this.pending.set(id, computing);
        try {
          const value = await computing;
          // Not stale since it started (a change would have removed it from `pending`).
          if (this.pending.get(id) === computing) {
            // lru-cache keeps an entry while its age is <= ttl: one less holds it for less than ttlMs.
            this.lru.set(id, { value }, { size: Math.max(1, bytes(value)), ttl: Math.max(1, this.ttlMs - 1) });
          }
          return value;
        } finally {
          if (this.pending.get(id) === computing) this.pending.delete(id);
        }
      },
    };
  }

  /** A user changed something: every region forgets what it says the change makes stale. */
  changed(change: Change) {
    for (const state of this.regions) {
      const stale = state.options.staleAfter(change);
      if (stale === ALL) {
        this.forgetPending(`${state.name}\u0000${state.generation}\u0000`);
        state.generation += 1;
        continue;
      }
      for (const key of stale) {
        const id = this.id(state, key);
        this.lru.delete(id);
        this.pending.delete(id);
      }
    }
  }

  /** Forgets everything (a process that may have missed changes). */
  clear() {
    this.lru.clear();
    this.pending.clear();
    for (const state of this.regions) state.generation += 1;
  }

  /** This process may miss changes from now on: forget everything and cache nothing. */
  suspend() {
    this.suspended = true;
    this.clear();
  }

  /** Changes reach this process again (and it heard of none it missed: it forgot everything). */
  resume() {
    this.clear();
    this.suspended = false;
  }

  /** Whether reads now may be answered from memory (off, suspended, or this request must read fresh). */
  get caching(): boolean {
    return this.ttlMs > 0 && !this.suspended && !mustReadFresh();
  }

  /** Bytes held now (about). */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  private id(state: RegionState, key: string): string {
    return `${state.name}\u0000${state.generation}\u0000${key}`;
  }

  private forgetPending(prefix: string) {
    for (const id of this.pending.keys()) if (id.startsWith(prefix)) this.pending.delete(id);
  }
}
