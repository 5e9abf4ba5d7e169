import Bowser from 'bowser';

/**
 * The browser and system a User-Agent names, for the Sessions list ("Firefox 133", "Windows").
 * Parsed with bowser (maintained, MIT) rather than by hand: User-Agents are a maze of legacy
 * tokens (every browser claims to be Mozilla/5.0 and Safari) that only a curated list gets right.
 *
 * The browser keeps its major version, enough to tell two devices apart. The system shows its
 * name only: browsers now freeze its version in the header (every Mac says 10.15.7, Windows 11
 * says "NT 10.0", Chrome on Android says "Android 10"), so a version would mostly be wrong.
 * Null where the header names nothing we know (curl, a bot, an empty header).
 */
export function describeUserAgent(userAgent: string): { browser: string | null; system: string | null } {
  if (!userAgent) return { browser: null, system: null };
  const parsed = Bowser.parse(userAgent);
  const { name, version } = parsed.browser;
  const major = version?.match(/^\d+/)?.[0];
  return {
    browser: name ? (major ? `${name} ${major}` : name) : null,
    system: parsed.os.name || null,
  };
}
