/** Told how long each statement took, from sending it to its answer (metrics/metrics.ts). */
export type StatementListener = (seconds: number) => void;

/**
 * Times the statements of one database, at the one place queries pass (the client drizzle is
 * given): listeners come and go with the apps that use the database (tests build several on one).
 */
export class StatementTiming {
  private readonly listeners = new Set<StatementListener>();
  /** Statements sent and not yet answered. */
  inFlight = 0;

  listen(listener: StatementListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * `client` with its query() timed; `nested` names methods whose result (a pooled connection)
   * or callback's argument (a transaction) is timed the same way.
   */
  wrap<C extends object>(client: C, nested: { returns?: string; callsBackWith?: string } = {}): C {
    return new Proxy(client, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = (value as (...args: unknown[]) => unknown).bind(target);
        if (property === 'query') return (...args: unknown[]) => this.time(() => method(...args));
        if (property === nested.returns) {
          return async (...args: unknown[]) => this.wrap((await method(...args)) as object);
        }
        if (property === nested.callsBackWith) {
          return (work: (tx: object) => unknown, ...rest: unknown[]) => method((tx: object) => work(this.wrap(tx)), ...rest);
        }
        return method;
      },
    });
  }

  private time(run: () => unknown): unknown {
    const started = performance.now();
    const result = run();
    // Only promises are timed (the callback and cursor forms of pg are not used here).
    if (!(result instanceof Promise)) return result;
    this.inFlight += 1;
    const done = () => {
      this.inFlight -= 1;
      const seconds = (performance.now() - started) / 1000;
      for (const listener of this.listeners) listener(seconds);
    };
    result.then(done, done);
    return result;
  }
}
