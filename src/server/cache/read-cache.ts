import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from '../clock.js';
import type { Change } from './changes.js';
import { mustReadFresh } from './fresh-reads.js';

/** Every entry of a region, rather than a list of keys. */
export const ALL = 'all';

export interface RegionOptions<T> {
  /**
   * The keys of this region a change makes stale ([] when it cannot affect the region); with
   * `ownerOf`, the owners. Omitted: no change makes an entry wrong, only older (estimates, where
   * windows start), so the region keeps answering while this process may miss changes and for a
   * request that must read fresh.
   */
  staleAfter?: (change: Change) => readonly string[] | typeof ALL;
  /** About how many bytes an entry holds; by default the length of its JSON. */
  bytes?: (value: T) => number;
  /** How long an entry may be shared, when not the cache's time to live; 0 turns the region off. */
  ttlMs?: number;
  /**
   * Who an entry belongs to, where entries are found by one key and made stale by another (a
   * session is found by its token and is stale when its user changes): staleAfter then names
   * owners, and forgetOwner() forgets what one owns. An entry may have several (a viewer's
   * activity page is stale when the viewer's rows change, and when a user, post or board it
   * names does).
   */
  ownerOf?: (value: T) => string | readonly string[];
}

/** One kind of cached read (public user rows, post pages, ...): get() computes on a miss. */
export interface Region<T> {
  get(key: string, compute: () => Promise<T>): Promise<T>;
  /** Forgets one entry, for a write no Change names (signing out): after the write, like a change. */
  forget(key: string): void;
  /**
   * Forgets every entry of `owner` (ownerOf), and every computation in flight: which owner those
   * read is not known until they end.
   */
  forgetOwner(owner: string): void;
}

interface RegionState {
  name: string;
  options: RegionOptions<unknown>;
  ttlMs: number;
  /** Bumped when a change makes every entry stale: old keys are then never asked for again. */
  generation: number;
  /** With ownerOf: the ids of the entries each owner has in the LRU. */
  owned: Map<string, Set<string>>;
  /** What its entries in the LRU hold (about). */
  bytes: number;
}

/** What the LRU holds: the value, its region and size, and for a region with owners, whose it is. */
interface Stored {
  value: unknown;
  state: RegionState;
  size: number;
  owners: readonly string[];
}

/** Told of each region's reads and evictions (metrics/metrics.ts); region names are the code's, a bounded set. */
export interface CacheObserver {
  /** Answered from memory, or by a computation of the same key already in flight. */
  hit(region: string): void;
  /** Computed (reads around the cache, while it is off or suspended, are not counted). */
  miss(region: string): void;
  /** Pushed out to keep the cache within its bytes. */
  evicted(region: string): void;
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
 *
 * Every cache of a process is a region here (issue 27): the shared reads, the embedded database's
 * sessions (auth/session-cache.ts), and the estimates searches start from (where the newest
 * posts' windows start, the grams' statistics), each with its own time to live where it needs one.
 */
export class ReadCache {
  private readonly lru: LRUCache<string, Stored>;
  private readonly pending = new Map<string, Promise<unknown>>();
  private readonly regions: RegionState[] = [];
  /** While this process may be missing changes (its notifications are cut off): no caching. */
  private suspended = false;
  private readonly ttlMs: number;
  private readonly observer: CacheObserver | undefined;

  /**
   * ttlMs: how long any entry may be shared, a safety net only (changes are what make entries
   * stale); 0 turns caching off.
   */
  constructor({
    maxBytes,
    ttlMs,
    now = systemClock,
    observer,
  }: {
    maxBytes: number;
    ttlMs: number;
    now?: Clock;
    observer?: CacheObserver;
  }) {
    this.ttlMs = ttlMs;
    this.observer = observer;
    this.lru = new LRUCache({
      maxSize: Math.max(1, maxBytes),
      // Each entry's size and time to live are given when it is stored (its region's).
      sizeCalculation: () => 1,
      perf: { now },
      // Read the clock on every check: a test clock moves in steps.
      ttlResolution: 0,
      // Whatever takes an entry out (eviction, expiry, deletion) takes it out of its owners' lists.
      dispose: (stored, id, reason) => {
        const { state } = stored;
        state.bytes -= stored.size;
        if (reason === 'evict') this.observer?.evicted(state.name);
        for (const name of stored.owners) {
          const ids = state.owned.get(name);
          ids?.delete(id);
          if (ids?.size === 0) state.owned.delete(name);
        }
      },
    });
  }

  /** A cache of its own, for a part made alone (a tool, a test) that would share the process's. */
  static small(ttlMs: number): ReadCache {
    return new ReadCache({ maxBytes: 1024 * 1024, ttlMs });
  }

  region<T>(name: string, options: RegionOptions<T>): Region<T> {
    // One name, one region: two with the same name would answer each other's keys.
    if (this.regions.some((region) => region.name === name)) throw new Error(`the cache already has a region "${name}"`);
    const state: RegionState = {
      name,
      options: options as RegionOptions<unknown>,
      ttlMs: options.ttlMs ?? this.ttlMs,
      generation: 0,
      owned: new Map(),
      bytes: 0,
    };
    this.regions.push(state);
    const bytes = options.bytes ?? ((value: T) => JSON.stringify(value)?.length ?? 16);
    return {
      get: async (key, compute) => {
        if (!this.cachingIn(state)) return compute();
        const id = this.id(state, key);
        const hit = this.lru.get(id);
        const inFlight = !hit && this.pending.get(id);
        if (hit || inFlight) this.observer?.hit(name);
        if (hit) return hit.value as T;
        if (inFlight) return inFlight as Promise<T>;
        this.observer?.miss(name);
        const computing = compute();
        this.pending.set(id, computing);
        try {
          const value = await computing;
          // Not stale since it started (a change would have removed it from `pending`).
          if (this.pending.get(id) === computing) this.store(state, id, value, bytes(value));
          return value;
        } finally {
          if (this.pending.get(id) === computing) this.pending.delete(id);
        }
      },
      forget: (key) => this.forget(state, key),
      forgetOwner: (owner) => this.forgetOwner(state, owner),
    };
  }

  /** A user changed something: every region forgets what it says the change makes stale. */
  changed(change: Change) {
    for (const state of this.regions) {
      const stale = state.options.staleAfter?.(change) ?? [];
      if (stale === ALL) {
        this.forgetPending(`${state.name}\u0000${state.generation}\u0000`);
        state.generation += 1;
        continue;
      }
      for (const key of stale) {
        if (state.options.ownerOf) this.forgetOwner(state, key);
        else this.forget(state, key);
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

  /** Whether shared reads now may be answered from memory (off, suspended, or this request must read fresh). */
  get caching(): boolean {
    return this.ttlMs > 0 && this.changesHeard;
  }

  private cachingIn(state: RegionState): boolean {
    return state.ttlMs > 0 && (!state.options.staleAfter || this.changesHeard);
  }

  /** Whether every change this request must see has been heard here. */
  private get changesHeard(): boolean {
    return !this.suspended && !mustReadFresh();
  }

  private store(state: RegionState, id: string, value: unknown, bytes: number) {
    const owners = [state.options.ownerOf?.(value) ?? []].flat();
    const size = Math.max(1, bytes);
    const stored: Stored = { value, state, size, owners };
    // lru-cache keeps an entry while its age is <= ttl: one less holds it for less than ttlMs.
    this.lru.set(id, stored, { size, ttl: Math.max(1, state.ttlMs - 1) });
    // Counted once stored (dispose() takes it off again); one larger than the whole cache is not.
    if (this.lru.peek(id) === stored) state.bytes += size;
    // Listed once stored (one larger than the whole cache is not).
    if (this.lru.peek(id) !== stored) return;
    for (const name of owners) {
      const ids = state.owned.get(name) ?? new Set<string>();
      state.owned.set(name, ids.add(id));
    }
  }

  private forget(state: RegionState, key: string) {
    const id = this.id(state, key);
    this.lru.delete(id);
    this.pending.delete(id);
  }

  private forgetOwner(state: RegionState, owner: string) {
    for (const id of [...(state.owned.get(owner) ?? [])]) this.lru.delete(id);
    this.forgetPending(`${state.name}\u0000`);
  }

  /** Bytes held now (about). */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  /** Bytes each region holds now (about). */
  regionBytes(): Record<string, number> {
    return Object.fromEntries(this.regions.map((state) => [state.name, state.bytes]));
  }

  private id(state: RegionState, key: string): string {
    return `${state.name}\u0000${state.generation}\u0000${key}`;
  }

  private forgetPending(prefix: string) {
    for (const id of this.pending.keys()) if (id.startsWith(prefix)) this.pending.delete(id);
  }
}
