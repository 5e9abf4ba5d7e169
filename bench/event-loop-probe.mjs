/**
 * Preloaded into the bench's server (`node --import bench/event-loop-probe.mjs dist/server/main.js`,
 * spawned with an IPC channel): records the event loop's delay and answers the bench over IPC,
 * without touching the server's code.
 *
 *   'reset' → clears the histogram; answers { reset: true }
 *   'read'  → { p50, p99, max } delay in ms since the last reset, { rss, maxRss } in bytes
 *
 * The histogram samples every RESOLUTION_MS and records the time between two samples, so an idle
 * loop records about RESOLUTION_MS; the delay is what exceeds it (as @fastify/under-pressure
 * computes it).
 *
 * Plain JavaScript: Node 20 preloads no TypeScript. Started without an IPC channel, it does nothing.
 * When the channel closes (the bench exited), the server is sent SIGTERM.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 10;

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const delayMs = (ns) => Math.round(Math.max(0, ns / 1e6 - RESOLUTION_MS) * 100) / 100;
  process.on('message', (message) => {
    if (message === 'reset') {
      histogram.reset();
      process.send({ reset: true });
    } else if (message === 'read') {
      process.send({
        p50: delayMs(histogram.percentile(50)),
        p99: delayMs(histogram.percentile(99)),
        max: delayMs(histogram.max),
        rss: process.memoryUsage().rss,
        maxRss: process.resourceUsage().maxRSS * 1024,
      });
    }
  });
  // The channel must not keep the server alive: it exits as it would without the probe.
  process.channel?.unref();
  // The bench went away (it crashed, say): stop as on SIGTERM rather than outlive it, holding
  // the embedded database's directory and a port.
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
