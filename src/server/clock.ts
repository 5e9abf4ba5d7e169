/**
 * Milliseconds since the epoch, like Date.now(). The in-memory caches read the time through one,
 * so a test can move their time on instead of sleeping past a time to live and hoping two
 * requests land inside it.
 */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
