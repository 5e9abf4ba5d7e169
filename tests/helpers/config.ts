import { loadConfig } from '../../src/server/config.js';

/** The message loadConfig stops the server with, or undefined when it starts. */
export function refusal(env: NodeJS.ProcessEnv): string | undefined {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
