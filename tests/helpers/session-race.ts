/**
 * Thieves racing a credential change (issue 26): four clients keep signing in with a password
 * while `change` runs (a password change, a reset, a suspension), then every session they were
 * given is tried. The session rule says none may work.
 */
export interface RaceOutcome {
  /** Sign-ins the thieves sent. */
  signIns: number;
  /** Sessions they were given. */
  given: number;
  /** Of those, how many still work after the change. */
  alive: number;
}

export interface Thief {
  /** One sign-in: the session cookie it was given, if any. */
  signIn(): Promise<string | undefined>;
  isAlive(cookie: string): Promise<boolean>;
}

/** One round: the change lands while sign-ins are in flight; they stop once it is done and theirs have answered. */
export async function race(thief: Thief, change: () => Promise<void>): Promise<RaceOutcome> {
  let stop = false;
  let signIns = 0;
  const cookies: string[] = [];
  const keepSigningIn = async () => {
    while (!stop) {
      const cookie = await thief.signIn();
      signIns += 1;
      if (cookie) cookies.push(cookie);
    }
  };
  const thieves = Array.from({ length: 4 }, keepSigningIn);
  while (signIns < 8) await new Promise((resolve) => setTimeout(resolve, 2));
  await change();
  stop = true;
  await Promise.all(thieves);
  const alive = (await Promise.all(cookies.map((cookie) => thief.isAlive(cookie)))).filter(Boolean).length;
  return { signIns, alive, given: cookies.length };
}

/** Rounds of `race` (at least 3) until at least 50 sign-ins raced; the totals, also printed: the issue asks for the figures. */
export async function raceRounds(name: string, round: (n: number) => Promise<RaceOutcome>): Promise<RaceOutcome> {
  const total = { signIns: 0, alive: 0, given: 0 };
  for (let n = 0; total.signIns < 50 || n < 3; n += 1) {
    const outcome = await round(n);
    total.signIns += outcome.signIns;
    total.alive += outcome.alive;
    total.given += outcome.given;
  }
  console.info(`${name}: ${total.alive} of ${total.given} thief sessions alive after ${total.signIns} racing sign-ins`);
  return total;
}
