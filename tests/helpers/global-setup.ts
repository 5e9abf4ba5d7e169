import { reachable, SERVICES } from './services.js';

/**
 * Once per `vitest run`, before any test file: one line for each service whose tests are
 * skipped because its variable is unset, and a loud failure when a variable names a service that
 * does not answer (a run that was asked to test PostgreSQL must not quietly skip it).
 */
export default async function globalSetup() {
  for (const service of SERVICES) {
    if (!service.url) {
      console.log(`${service.name} tests skipped: set ${service.variable}=${service.example} to run them`);
      continue;
    }
    if (!(await reachable(service.url, service.port))) {
      const { host } = new URL(service.url);
      throw new Error(
        `${service.variable} is set, but nothing answers at ${host || 'its address'}: start ${service.name} there, or unset ${service.variable} to skip its tests`,
      );
    }
  }
}
