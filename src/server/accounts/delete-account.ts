import type { DeleteAccountBody } from '../../shared/api/delete-account.js';
import type { UserRow } from '../auth/auth.queries.js';
import { verifyPassword } from '../auth/password.js';
import { proveOwner } from '../auth/owner-proof.js';
import { holdUsername } from '../auth/username-hold.js';
import type { RateLimitConfig } from '../config.js';
import { iconFileKeys } from '../directory/icon-images.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { imageFileKeys } from '../posts/post-images.js';
import type { TrackedFiles } from '../storage/tracked-files.js';
import { deleteUser, lockAccount, postImageKeys } from './delete-account.queries.js';

/**
 * Delete Account (issue 16): the account, its posts, its follows both ways, its sessions, its
 * reset link and every file it stored (each post's original and variants, every icon size).
 */
export class AccountDeletion {
  constructor(
    private readonly files: TrackedFiles,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimitConfig,
    /** The key of the held name's address (server-secret.ts). */
    private readonly secret: Buffer,
  ) {}

  /**
   * The password is asked again: a session left open on a shared computer must not be enough
   * to erase someone. Wrong guesses are limited like sign-in failures: per account (from any
   * address: whoever guesses already holds the session) and per address. The slots are taken
   * before the argon2 check, so concurrent guesses can't pass the limit (http/rate-limiter.ts).
   *
   * The rows go in one transaction that also records every file key as pending (TrackedFiles),
   * then the files are deleted: a crash after the commit leaves keys for the sweep, never files
   * that nothing points at. Memory holds one key per file: about 3 short strings per post.
   */
  async delete(user: UserRow, body: DeleteAccountBody, address: string, signedInRecently = false): Promise<void> {
    await proveOwner(user, signedInRecently, () => this.checkPassword(user, body, address));
    await this.erase(user);
  }

  /** The password typed again, its wrong guesses limited per account and per address. */
  private async checkPassword(user: UserRow, body: DeleteAccountBody, address: string): Promise<void> {
    if (body.password === '') throw new AppError(400, 'FILL_IN_ALL_FIELDS');
    const { loginPerIp, loginFailuresPerAccount, windowMs } = this.limits;
    const slots = await this.limiter.take(
      [
        { key: `delete-account:fail:user:${user.id}`, limit: loginFailuresPerAccount },
        { key: `delete-account:fail:ip:${address}`, limit: loginPerIp },
      ],
      windowMs,
    );
    if (!(await verifyPassword(user.passwordHash, body.password))) {
      throw new AppError(401, 'INCORRECT_PASSWORD').withAudit({ accountId: user.id });
    }
    await Promise.all(slots.map((slot) => slot.release()));
  }

  private async erase(user: UserRow): Promise<void> {
    // Every cache forgets the account (the change commits with it) before its files go: that can take a while.
    await this.files.release(async (tx, note) => {
      const account = await lockAccount(tx, user.id);
      // Deleted a moment ago by another request of theirs: this session has ended with it.
      if (!account) throw new AppError(401, 'NOT_SIGNED_IN');
      const released = (await postImageKeys(tx, user.id)).flatMap(imageFileKeys);
      if (account.iconKey) released.push(...iconFileKeys(account.iconKey));
      await holdUsername(tx, this.secret, account.username, account.email);
      await deleteUser(tx, user.id);
      await note(user, { kind: 'account-deleted', userId: user.id, username: account.username });
      return { result: undefined, released };
    });
  }
}
