import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus metrics of one app (issue 28): a registry of its own, since tests build many
 * apps in one process and the default registry is global.
 *
 * Components know nothing of prom-client: each takes an optional small observer (ReadCache's
 * CacheObserver, RateLimiter's, ImageQueue's, the change feed's, the database's statement
 * listener), which the objects made here fill in; what is state already (queue depth, slots,
 * pool use, bytes held) is read when scraped, through sources app.ts gives (watch()).
 *
 * Every label has a bounded set of values: route patterns (never raw paths), status classes,
 * cache region names and limit names, all written in the code.
 */
export class Metrics {
  readonly registry = new Registry();
  private sources: MetricSources = {};

  private readonly requestSeconds = new Histogram({
    name: 'dormboard_http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern ("unmatched" for none) and status class.',
    labelNames: ['method', 'route', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly inFlight = new Gauge({
    name: 'dormboard_http_requests_in_flight',
    help: 'Requests received and not yet answered.',
    registers: [this.registry],
  });
  private readonly statementSeconds = new Histogram({
    name: 'dormboard_db_statement_duration_seconds',
    help: 'Time from sending a statement to the database to its answer (PGlite: waiting for its turn included).',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly cacheHits = new Counter({
    name: 'dormboard_cache_hits_total',
    help: 'Reads of a cache region answered from memory (or by a computation already in flight).',
    labelNames: ['region'],
    registers: [this.registry],
  });
  private readonly cacheMisses = new Counter({
    name: 'dormboard_cache_misses_total',
    help: 'Reads of a cache region that computed their answer.',
    labelNames: ['region'],
    registers: [this.registry],
  });
  private readonly cacheEvictions = new Counter({
    name: 'dormboard_cache_evictions_total',
    help: 'Entries of a cache region pushed out to keep the cache within CACHE_MAX_BYTES.',
    labelNames: ['region'],
    registers: [this.registry],
  });
  private readonly feedLag = new Histogram({
    name: 'dormboard_change_feed_lag_seconds',
    help: "PostgreSQL: from another process writing a change's notice to this process hearing it (both processes' clocks).",
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly feedReconnects = new Counter({
    name: 'dormboard_change_feed_reconnects_total',
    help: 'PostgreSQL: times the change feed listened again after losing its connection (caching was paused meanwhile).',
    registers: [this.registry],
  });
  private readonly imageSeconds = new Histogram({
    name: 'dormboard_image_processing_seconds',
    help: 'Time an upload spent in work in the image queue (decode, resize, encode), after its wait.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32],
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'dormboard_rate_limit_refusals_total',
    help: 'Attempts refused by a rate limit, by the limit (the key without whom it counts: "login:fail:ip").',
    labelNames: ['limit'],
    registers: [this.registry],
  });

  constructor() {
    // Process CPU, memory, handles, GC, and the event loop's delay (nodejs_eventloop_lag_*).
    collectDefaultMetrics({ register: this.registry });
    // Read at each scrape; each collect() has its gauge as `this`.
    const sources = () => this.sources;
    new Gauge({
      name: 'dormboard_cache_bytes',
      help: 'Bytes (about) a cache region holds; all regions share CACHE_MAX_BYTES.',
      labelNames: ['region'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [region, bytes] of Object.entries(sources().cacheBytes?.() ?? {})) this.set({ region }, bytes);
      },
    });
    new Gauge({
      name: 'dormboard_image_queue_uploads',
      help: 'Uploads in the image queue: in work, and waiting for a lane.',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const size = sources().imageQueue?.();
        if (!size) return;
        this.set({ state: 'active' }, size.active);
        this.set({ state: 'waiting' }, size.waiting);
      },
    });
    new Gauge({
      name: 'dormboard_export_slots',
      help: 'Download My Data: slots in use, and how many there are (EXPORT_CONCURRENCY).',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const slots = sources().exportSlots?.();
        if (!slots) return;
        this.set({ state: 'in_use' }, slots.inUse);
        this.set({ state: 'capacity' }, slots.capacity);
      },
    });
    new Gauge({
      name: 'dormboard_db_pool_connections',
      help: 'Database connections: total, idle, and requests waiting for one (PGlite: one connection, busy while a statement runs).',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const pool = sources().databasePool?.();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
    new Gauge({
      name: 'dormboard_db_statements_in_flight',
      help: 'Statements sent to the database and not yet answered.',
      registers: [this.registry],
      collect() {
        this.set(sources().statementsInFlight?.() ?? 0);
      },
    });
  }

  /** What is read at each scrape; app.ts gives what its parts hold. */
  watch(sources: MetricSources) {
    this.sources = { ...this.sources, ...sources };
  }

  /** The Prometheus text format, and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  requestStarted() {
    this.inFlight.inc();
  }

  requestAbandoned() {
    this.inFlight.dec();
  }

  /** route: the route's pattern (`/api/users/:username`), or undefined when none matched. */
  requestEnded(method: string, route: string | undefined, statusCode: number, seconds: number) {
    this.inFlight.dec();
    this.requestSeconds.observe({ method, route: route ?? 'unmatched', status_class: statusClass(statusCode) }, seconds);
  }

  /** For Database.onStatement. */
  readonly statement = (seconds: number) => this.statementSeconds.observe(seconds);

  /** For ReadCache (cache/read-cache.ts CacheObserver). */
  readonly cache = {
    hit: (region: string) => this.cacheHits.inc({ region }),
    miss: (region: string) => this.cacheMisses.inc({ region }),
    evicted: (region: string) => this.cacheEvictions.inc({ region }),
  };

  /** For the change feed (db/change-feed.ts FeedObserver). */
  readonly changeFeed = {
    heard: (lagSeconds: number) => this.feedLag.observe(Math.max(0, lagSeconds)),
    reconnected: () => this.feedReconnects.inc(),
  };

  /** For ImageQueue (images/image-queue.ts ImageQueueObserver). */
  readonly images = {
    worked: (seconds: number) => this.imageSeconds.observe(seconds),
  };

  /** For RateLimiter (http/rate-limiter.ts LimitObserver). */
  readonly limits = {
    refused: (limit: string) => this.refusals.inc({ limit }),
  };
}

export interface MetricSources {
  cacheBytes?: () => Record<string, number>;
  imageQueue?: () => { active: number; waiting: number };
  exportSlots?: () => { inUse: number; capacity: number };
  databasePool?: () => { total: number; idle: number; waiting: number };
  statementsInFlight?: () => number;
}

const statusClass = (statusCode: number) => `${Math.floor(statusCode / 100)}xx`;
