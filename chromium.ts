/**
 * How the project runs Chromium everywhere (end-to-end tests, benchmarks): Debian's build, never
 * a downloaded one, and no background traffic (this network reaches only package registries).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
