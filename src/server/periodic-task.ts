import type { FastifyInstance } from 'fastify';

/**
 * Runs `task` every `everyMs` while the app is up (and once when it is ready, with `atStart`),
 * never two runs at once. A failure is logged and the next run retries.
 */
export function registerPeriodicTask(
  app: FastifyInstance,
  options: { name: string; everyMs: number; atStart?: boolean; task: () => Promise<void> },
) {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await options.task();
    } catch (error) {
      app.log.warn({ err: error }, `${options.name} failed; the next run will retry`);
    } finally {
      running = false;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (options.atStart) await run();
    if (options.everyMs > 0) timer = setInterval(() => void run(), options.everyMs).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
