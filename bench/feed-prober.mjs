/**
 * The client of the bench's "slow query" scenario (bench/run.ts), in a process of its own: it
 * sends one GET at a time and times each, so the bench's own heap (its collections of tens of
 * ms, seen with --trace-gc) and other work never land inside a measured request.
 *
 * Spawned with an IPC channel (`node bench/feed-prober.mjs`):
 *
 *   { url, cookie }   → GETs the url until told to stop, one at a time
 *   'stop'            → { latencies } in ms, in the order sent (at least one request)
 *
 * Plain JavaScript and node:http with a keep-alive agent: a small process with little to collect.
 */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET, body read, in ms. */
function timedGet(url, cookie) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { cookie } }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
        else resolve(performance.now() - started);
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

let stopping = false;

process.on('message', async (message) => {
  if (message === 'stop') {
    stopping = true;
    return;
  }
  if (typeof message?.url !== 'string') return;
  try {
    const latencies = [];
    do latencies.push(await timedGet(message.url, message.cookie));
    while (!stopping);
    stopping = false;
    process.send({ latencies });
  } catch (error) {
    process.send({ error: error instanceof Error ? error.message : String(error) });
  }
});
