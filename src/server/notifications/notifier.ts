import { randomUUID } from 'node:crypto';
import { activityLink, activityText } from '../../shared/activity-copy.js';
import { TOPIC_OF, type ActivityGroup, type ReportOutcome } from '../../shared/api/activity.js';
import { activityChange } from '../cache/changes.js';
import type { Actor, Note } from '../db/change-notices.js';
import type { AppDb } from '../db/database.js';
import * as queries from './activity.queries.js';

/** Who did it, as the services know them. */
export interface EventActor {
  id: string;
  username: string;
}

/** A board as a notification names it. */
export interface EventBoard {
  id: string;
  name: string;
  slug: string;
  ownerUsername: string;
  secret: boolean;
}

/** What happened, to whom (`to`): every event the services tell of. */
export type ActivityEvent =
  | { kind: 'follow'; to: string; actor: EventActor }
  | { kind: 'save'; to: string; actor: EventActor; postId: string; board: EventBoard }
  | { kind: 'board_invite' | 'board_joined' | 'board_left' | 'board_declined'; to: string; actor: EventActor; board: EventBoard }
  | { kind: 'post_removed'; to: string; reason: string }
  | { kind: 'suspended'; to: string; until: Date | null }
  | { kind: 'report_handled'; to: string[]; postId: string | null; outcome: ReportOutcome };

/** What a push carries, as the service worker shows it (client/sw.ts). */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

/**
 * Tells people of events: a row for each recipient who wants it in the app, and a push queued for
 * each device of those who want it as a push, in the transaction of the event itself (an undone
 * follow tells nobody). The push sender hears that pushes wait once it commits ('push-queued').
 * Rows are grouped when read (activity.service.ts); the push says the one event.
 */
export class Notifier {
  constructor(private readonly appName: string) {}

  async tell(tx: AppDb, note: Note, event: ActivityEvent): Promise<void> {
    const to = Array.isArray(event.to) ? event.to : [event.to];
    const actor = 'actor' in event ? event.actor : null;
    // Nobody is told of what they did themselves (saving your own post, a moderator's own report).
    const recipientIds = to.filter((id) => id !== actor?.id);
    if (recipientIds.length === 0) return;
    const row = rowOf(event, recipientIds);
    const recipients = await queries.recipientsOf(tx, row);
    const told = recipients.filter((recipient) => recipient.row).map((recipient) => recipient.id);
    await queries.insertNotifications(tx, row, told);
    if (told.length > 0) await note({ id: actor?.id ?? null }, activityChange(told));
    const pushTo = recipients.filter((recipient) => recipient.push).map((recipient) => recipient.id);
    if (pushTo.length === 0) return;
    const payload = fitted(this.payloadOf(event, row.groupKey));
    if (await queries.queuePushes(tx, pushTo, actor?.id ?? null, payload)) await note({ id: actor?.id ?? null }, { kind: 'push-queued' });
  }

  /** A board's rows its recipients may no longer see go (made secret, left, an invitation revoked); they hear of it. */
  async forgetUnseenBoardRows(tx: AppDb, note: Note, actor: Actor, boardId: string): Promise<void> {
    const whose = await queries.forgetUnseenBoardRows(tx, boardId);
    if (whose.length > 0) await note(actor, activityChange(whose));
  }

  /** The viewer joined a board they were invited to: the invitation's row is read. */
  async invitationAnswered(tx: AppDb, note: Note, viewer: Actor & { id: string }, boardId: string): Promise<void> {
    if (await queries.readInvitation(tx, viewer.id, boardId)) await note(viewer, activityChange([viewer.id]));
  }

  /** A board is about to be deleted: its rows go with it (a cascade); their recipients hear of it. */
  async forgetBoard(tx: AppDb, note: Note, actor: Actor, boardId: string): Promise<void> {
    const whose = await queries.recipientsAbout(tx, boardId);
    if (whose.length > 0) await note(actor, activityChange(whose));
  }

  /**
   * The push of one event: the same sentence as its row on /activity, never a secret board's
   * name. Its tag is the row's group, so a device shows one notification per group (the newest);
   * a moderator's notice stands alone.
   */
  private payloadOf(event: ActivityEvent, groupKey: string | null): PushPayload {
    const group = singleGroup(event);
    // A follower's profile needs no recipient's name; no other link of a single event does either.
    const url = activityLink(group, '') ?? '/activity';
    return { title: this.appName, body: activityText(group, 'unnamed'), url, tag: groupKey ?? `${event.kind}:${randomUUID()}` };
  }
}

/**
 * The most a push's payload (its JSON, in UTF-8) takes: push services accept 4,096 bytes of
 * encrypted body (RFC 8030 §7.2; FCM and APNs no more), of which the encryption takes 103, and
 * push_deliveries.payload holds 3,000 characters (never more than its bytes).
 */
const PAYLOAD_MAX_BYTES = 3_000;

/**
 * The payload's JSON, its body shortened (with an ellipsis) when the whole would not fit: a
 * moderator's note may be 500 characters that JSON writes six times as long (control characters),
 * which would otherwise fail the CHECK on push_deliveries and so the moderator's own action.
 */
function fitted(payload: PushPayload): string {
  const whole = JSON.stringify(payload);
  if (Buffer.byteLength(whole) <= PAYLOAD_MAX_BYTES) return whole;
  // By code point, so no character is cut in half; the longest start that fits, found by halving.
  const chars = Array.from(payload.body);
  const withStart = (length: number) => JSON.stringify({ ...payload, body: `${chars.slice(0, length).join('')}…` });
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(withStart(middle)) <= PAYLOAD_MAX_BYTES) low = middle;
    else high = middle - 1;
  }
  return withStart(low);
}

function rowOf(event: ActivityEvent, recipientIds: string[]): queries.NewNotification {
  const base = {
    kind: event.kind,
    topic: TOPIC_OF[event.kind],
    recipientIds,
    actorId: null,
    postId: null,
    boardId: null,
    groupKey: null,
    detail: null,
    until: null,
  };
  switch (event.kind) {
    case 'follow':
      return { ...base, actorId: event.actor.id, groupKey: 'follow' };
    case 'save':
      return { ...base, actorId: event.actor.id, postId: event.postId, boardId: event.board.id, groupKey: `save:${event.postId}` };
    case 'board_invite':
    case 'board_joined':
    case 'board_left':
    case 'board_declined':
      return { ...base, actorId: event.actor.id, boardId: event.board.id, groupKey: `${event.kind}:${event.board.id}` };
    case 'post_removed':
      return { ...base, detail: event.reason || null };
    case 'suspended':
      return { ...base, until: event.until };
    case 'report_handled':
      return { ...base, postId: event.outcome === 'no_action' ? event.postId : null, detail: event.outcome };
  }
}

/** One event as a group of one, for its sentence and link. */
function singleGroup(event: ActivityEvent): ActivityGroup {
  const actor = 'actor' in event ? event.actor : null;
  const board = 'board' in event ? event.board : null;
  const postId = 'postId' in event ? event.postId : null;
  return {
    // One event, not a stored group: nothing names it (the push's tag is the row's group key).
    id: '',
    kind: event.kind,
    actors: actor ? [{ username: actor.username, icon: null }] : [],
    count: 1,
    unread: true,
    at: new Date().toISOString(),
    post: postId ? { id: postId, thumbnail: null } : null,
    board: board ? { id: board.id, name: board.name, slug: board.slug, owner: board.ownerUsername, secret: board.secret } : null,
    invite: event.kind === 'board_invite' ? 'pending' : null,
    reason: event.kind === 'post_removed' ? event.reason || null : null,
    until: event.kind === 'suspended' ? (event.until?.toISOString() ?? null) : null,
    outcome: event.kind === 'report_handled' ? event.outcome : null,
  };
}
