import { expect, test, type Page } from '@playwright/test';
import type { BoardResponse } from '../../src/shared/api/boards';
import { API } from '../../src/shared/api/paths';
import { BOARD_COPY } from '../../src/shared/boards-copy';
import * as COPY from '../../src/shared/copy';
import { ERRORS } from '../../src/shared/errors';
import { boardViaApi, newAccount, postViaApi, saveViaApi, signUpViaApi, WALK_TIMEOUT } from './helpers';

/**
 * Boards (issue 18), at both viewports: save a post into a new board from its page; the board in
 * the Boards tab and on its page; a secret board nobody else finds; a shared board (invite,
 * join, a collaborator's save, the owner sees it); deleting a board through its confirmation.
 */

/** A word only this run's posts and boards hold. */
const tag = () => Math.random().toString(36).slice(2, 8);

/** The Save button on a post's page (its name changes to 'Saved · {board}'). */
const saveButton = (page: Page) => page.getByRole('main').getByRole('button', { name: /^Save/ }).first();

test('save a post into a new board from its page; the Boards tab and the board page show it; a second tap removes it', async ({
  page,
  request,
}) => {
  const word = tag();
  await signUpViaApi(request, newAccount('bauth'));
  const description = `${word} fairy lights over the bunk #dorm`;
  const postId = await postViaApi(request, description);
  const me = await signUpViaApi(page.request, newAccount('bsave'));
  const name = `Dorm ideas ${word}`;

  await page.goto(`/post/${postId}`);
  const save = saveButton(page);
  await expect(save).toHaveText(COPY.boards.save);
  await save.click();
  const picker = page.getByRole('dialog', { name: BOARD_COPY.pickerTitle });
  await expect(picker).toBeVisible();
  await expect(picker.getByText(BOARD_COPY.noBoards)).toBeVisible();
  await picker.getByRole('button', { name: BOARD_COPY.newBoard }).click();
  await expect(picker.getByLabel(BOARD_COPY.name)).toBeFocused();
  // The shared rule answers at once, before anything is sent.
  await picker.getByRole('button', { name: BOARD_COPY.create }).click();
  await expect(picker.getByTestId('new-board-errors')).toHaveText('Give your board a name.');
  await expect(picker.getByLabel(BOARD_COPY.name)).toBeFocused();
  await picker.getByLabel(BOARD_COPY.name).fill(`  ${name}  `);
  await picker.getByRole('button', { name: BOARD_COPY.create }).click();
  await expect(picker).toBeHidden();
  await expect(save).toHaveText(COPY.boards.saved(name));
  // Focus came back to the button that opened the picker.
  await expect(save).toBeFocused();
  // The server agrees (a reload reads it back).
  await page.reload();
  await expect(saveButton(page)).toHaveText(COPY.boards.saved(name));

  await page.goto(`/@${me.username}`);
  await page.getByRole('link', { name: BOARD_COPY.boardsTab, exact: true }).click();
  await expect(page).toHaveURL(`/@${me.username}/boards`);
  const tile = page
    .getByRole('list', { name: `Boards of @${me.username}` })
    .getByRole('listitem')
    .filter({ hasText: name });
  await expect(tile).toContainText(BOARD_COPY.count(1));
  await expect(tile.getByAltText(name)).toBeVisible();
  // A tap anywhere on the tile, the cover too, opens the board.
  await tile.click({ position: { x: 20, y: 20 } });
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('main').getByText(BOARD_COPY.count(1))).toBeVisible();
  await expect(page.getByRole('list', { name: `Posts on ${name}` }).getByAltText(description)).toBeVisible();

  // Saved already: the picker shows it, and a tap takes the post off the board.
  await page.goto(`/post/${postId}`);
  await saveButton(page).click();
  const row = picker.getByRole('button', { name: new RegExp(name) });
  await expect(row).toHaveAttribute('aria-pressed', 'true');
  await row.click();
  await expect(picker).toBeHidden();
  await expect(saveButton(page)).toHaveText(COPY.boards.save);
  await page.goto(`/@${me.username}/boards`);
  await expect(page.getByRole('listitem').filter({ hasText: name })).toContainText(BOARD_COPY.count(0));
});

test('signed out, Save asks to sign in', async ({ page, request }) => {
  await signUpViaApi(request, newAccount('bauth'));
  const postId = await postViaApi(request, `${tag()} signed out save`);
  await page.goto(`/post/${postId}`);
  await saveButton(page).click();
  const dialog = page.getByRole('dialog', { name: COPY.notSignedIn.title });
  await expect(dialog).toContainText(COPY.notSignedIn.message);
  await dialog.getByRole('button', { name: COPY.close }).click();
  await expect(dialog).toBeHidden();
});

test('a secret board is marked for its owner and invisible to another account, in the tab and at its address', async ({
  page,
  browser,
}) => {
  const word = tag();
  const owner = await signUpViaApi(page.request, newAccount('bsec'));
  const postId = await postViaApi(page.request, `${word} my secret plans #room`);
  const open = await boardViaApi(page.request, `Open ${word}`);
  await saveViaApi(page.request, open.id, postId);

  // Made from the Boards tab, with the Secret switch.
  await page.goto(`/@${owner.username}/boards`);
  await page.getByRole('button', { name: BOARD_COPY.newBoard }).click();
  const dialog = page.getByRole('dialog', { name: BOARD_COPY.newBoard });
  await dialog.getByLabel(BOARD_COPY.name).fill(`Secret ${word}`);
  await dialog.getByLabel(BOARD_COPY.description).fill('Birthday surprise for my roommate');
  await dialog.getByRole('switch', { name: BOARD_COPY.secret }).check();
  await dialog.getByRole('button', { name: BOARD_COPY.createOnly }).click();
  // The name's words and a tail of the board's own (issue 26).
  await expect(page).toHaveURL(new RegExp(`/@${owner.username}/boards/secret-${word}-[a-z2-7]{6}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Secret ${word}` })).toBeVisible();
  await expect(page.getByRole('main').getByText(BOARD_COPY.secretBadge, { exact: true })).toBeVisible();
  await expect(page.getByText('Birthday surprise for my roommate')).toBeVisible();
  const secretUrl = new URL(page.url()).pathname;

  await page.goto(`/@${owner.username}/boards`);
  await expect(page.getByRole('listitem').filter({ hasText: `Secret ${word}` })).toContainText(
    `${BOARD_COPY.count(0)}${BOARD_COPY.secretBadge}`,
  );

  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const stranger = await other.newPage();
  await signUpViaApi(stranger.request, newAccount('bstr'));
  await stranger.goto(`/@${owner.username}/boards`);
  await expect(stranger.getByRole('listitem').filter({ hasText: `Open ${word}` })).toContainText(BOARD_COPY.count(1));
  await expect(stranger.getByText(`Secret ${word}`)).toHaveCount(0);
  await stranger.goto(secretUrl);
  await expect(stranger.getByRole('heading', { name: COPY.notFound })).toBeVisible();
  expect((await stranger.request.get(API.userBoard(owner.username, secretUrl.split('/').at(-1)!))).status()).toBe(404);
  await other.close();
});

test('shared board: the owner invites, the invitee joins and saves from a post page, the owner sees it, then deletes the board', async ({
  page,
  browser,
}) => {
  test.setTimeout(WALK_TIMEOUT);
  const word = tag();
  const name = `Trip ${word}`;
  const owner = await signUpViaApi(page.request, newAccount('bown'));
  const board = await boardViaApi(page.request, name, true);

  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const guest = await other.newPage();
  const friend = await signUpViaApi(guest.request, newAccount('bfri'));
  const description = `${word} cheap hostel near the station #travel`;
  const postId = await postViaApi(guest.request, description);

  // Invite by username.
  await page.goto(`/@${owner.username}/boards/${board.slug}`);
  await page.getByRole('button', { name: BOARD_COPY.invite, exact: true }).click();
  const invite = page.getByRole('dialog', { name: BOARD_COPY.inviteTitle });
  await invite.getByLabel(BOARD_COPY.username).fill('nobody_here_at_all');
  await invite.getByRole('button', { name: BOARD_COPY.sendInvite, exact: true }).click();
  await expect(invite.getByTestId('invite-errors')).toHaveText('User not found!');
  await invite.getByLabel(BOARD_COPY.username).fill(`@${friend.username}`);
  await invite.getByRole('button', { name: BOARD_COPY.sendInvite, exact: true }).click();
  const members = invite.getByRole('list', { name: BOARD_COPY.collaborators });
  await expect(members.getByRole('listitem')).toHaveCount(1);
  await expect(members).toContainText(`@${friend.username}`);
  await expect(members).toContainText(BOARD_COPY.invited);
  await invite.getByRole('button', { name: COPY.close }).click();

  // The invitee sees the secret board, joins it, and saves their post to it from the post page.
  await guest.goto(`/@${owner.username}/boards/${board.slug}`);
  await expect(guest.getByText(BOARD_COPY.invitedNotice(owner.username))).toBeVisible();
  await guest.getByRole('button', { name: BOARD_COPY.join }).click();
  await expect(guest.getByRole('button', { name: BOARD_COPY.leave })).toBeVisible();
  await expect(guest.getByRole('button', { name: BOARD_COPY.join })).toHaveCount(0);
  await guest.goto(`/post/${postId}`);
  await saveButton(guest).click();
  await guest
    .getByRole('dialog', { name: BOARD_COPY.pickerTitle })
    .getByRole('button', { name: new RegExp(name) })
    .click();
  await expect(saveButton(guest)).toHaveText(COPY.boards.saved(name));

  // The owner sees it, and who saved with them.
  await page.reload();
  await expect(page.getByRole('list', { name: `Posts on ${name}` }).getByAltText(description)).toBeVisible();
  await expect(page.getByRole('main').getByText(BOARD_COPY.count(1))).toBeVisible();
  await expect(page.getByRole('list', { name: BOARD_COPY.collaborators }).getByRole('link', { name: `@${friend.username}` })).toBeVisible();

  // Delete, through the confirmation (Cancel first: Enter never deletes).
  await page.getByRole('button', { name: BOARD_COPY.deleteBoard }).click();
  const confirm = page.getByRole('dialog', { name: BOARD_COPY.deleteTitle });
  await expect(confirm).toContainText(BOARD_COPY.deleteMessage(name));
  await expect(confirm.getByRole('button', { name: COPY.cancel })).toBeFocused();
  await confirm.getByRole('button', { name: BOARD_COPY.delete, exact: true }).click();
  await expect(page).toHaveURL(`/@${owner.username}/boards`);
  await expect(page.getByText(BOARD_COPY.noneOwn)).toBeVisible();

  await guest.goto(`/@${owner.username}/boards/${board.slug}`);
  await expect(guest.getByRole('heading', { name: COPY.notFound })).toBeVisible();
  await other.close();
});

test('a grid card offers Save on hover on a desktop, and only on the post page on a phone', async ({ page, request }, testInfo) => {
  const word = tag();
  await signUpViaApi(request, newAccount('bgrid'));
  const description = `${word} plant shelf by the window #plants`;
  await postViaApi(request, description);
  await signUpViaApi(page.request, newAccount('bgrid'));
  await page.goto(`/search/${word}`);
  const card = page.getByRole('listitem').filter({ has: page.getByAltText(description) });
  const cardSave = card.getByRole('button', { name: COPY.boards.saveLabel(description) });

  if (testInfo.project.name === 'phone') {
    await expect(card).toBeVisible();
    await expect(cardSave).toBeHidden();
    return;
  }
  await expect(cardSave).toBeHidden();
  await card.hover();
  await expect(cardSave).toBeVisible();
  await cardSave.click();
  const picker = page.getByRole('dialog', { name: BOARD_COPY.pickerTitle });
  await expect(picker).toBeVisible();
  // The picker stays open while the pointer is elsewhere (it is not inside the card).
  await page.mouse.move(5, 5);
  await expect(picker).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  // The keyboard reaches it too: Tab from the card's link lands on its Save.
  await card.getByRole('link').focus();
  await page.keyboard.press('Tab');
  await expect(cardSave).toBeFocused();
});

test('the owner renames (the page moves to the new address), chooses the cover and removes a post; a collaborator leaves', async ({
  page,
  browser,
}) => {
  test.setTimeout(WALK_TIMEOUT);
  const word = tag();
  const owner = await signUpViaApi(page.request, newAccount('bedit'));
  const first = `${word} cable tray under the desk #desk`;
  const second = `${word} monitor arm, finally #desk`;
  const firstId = await postViaApi(page.request, first);
  const secondId = await postViaApi(page.request, second);
  const board = await boardViaApi(page.request, `Desk ${word}`);
  await saveViaApi(page.request, board.id, firstId);
  await saveViaApi(page.request, board.id, secondId);
  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const guest = await other.newPage();
  const friend = await signUpViaApi(guest.request, newAccount('bleav'));
  expect((await page.request.put(API.boardMember(board.id, friend.username))).ok()).toBe(true);
  expect((await guest.request.post(API.boardJoin(board.id))).ok()).toBe(true);

  await page.goto(`/@${owner.username}/boards/${board.slug}`);
  await page.getByRole('button', { name: BOARD_COPY.edit, exact: true }).click();
  const edit = page.getByRole('dialog', { name: BOARD_COPY.editTitle });
  // Too long: said at once, from the shared rule.
  await edit.getByLabel(BOARD_COPY.name).fill('x'.repeat(51));
  await expect(edit.getByTestId('edit-board-errors')).toHaveText(ERRORS.BOARD_NAME_TOO_LONG);
  await edit.getByLabel(BOARD_COPY.name).fill(`Desk setup ${word}`);
  await expect(edit.getByTestId('edit-board-errors')).toHaveText('');
  await edit.getByLabel(BOARD_COPY.description).fill('Cable management, round two');
  await edit.getByRole('button', { name: BOARD_COPY.saveChanges, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/@${owner.username}/boards/desk-setup-${word}-[a-z2-7]{6}$`));
  const renamedUrl = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { level: 1, name: `Desk setup ${word}` })).toBeVisible();
  await expect(page.getByText('Cable management, round two')).toBeVisible();
  const current = () =>
    page.request.get(API.userBoard(owner.username, renamedUrl.split('/').at(-1)!)).then((r) => r.json() as Promise<BoardResponse>);

  // Organize: the older post becomes the cover, then back to the newest; the newer one leaves.
  await page.getByRole('button', { name: BOARD_COPY.organize }).click();
  await page.getByRole('button', { name: BOARD_COPY.makeCoverLabel(first) }).click();
  const grid = page.getByRole('list', { name: `Posts on Desk setup ${word}` });
  await expect(grid.getByRole('listitem').filter({ has: page.getByAltText(first) })).toContainText(BOARD_COPY.isCover);
  expect((await current()).board.coverPostId).toBe(firstId);
  await page.getByRole('button', { name: BOARD_COPY.useNewest }).click();
  await expect(page.getByRole('button', { name: BOARD_COPY.useNewest })).toHaveCount(0);
  expect((await current()).board.coverPostId).toBeNull();
  await page.getByRole('button', { name: BOARD_COPY.removeLabel(second) }).click();
  await expect(grid.getByAltText(second)).toHaveCount(0);
  await expect(page.getByRole('main').getByText(BOARD_COPY.count(1))).toBeVisible();
  await page.getByRole('button', { name: BOARD_COPY.done }).click();
  await expect(page.getByRole('button', { name: BOARD_COPY.removeLabel(first) })).toHaveCount(0);

  // The collaborator, at the new address, leaves in one tap.
  await guest.goto(renamedUrl);
  await guest.getByRole('button', { name: BOARD_COPY.leave }).click();
  await expect(guest).toHaveURL(`/@${friend.username}/boards`);
  expect((await current()).board.members).toEqual([]);
  await other.close();
});

test('markup in a board’s name and description is shown as text and never runs', async ({ page }) => {
  const name = '<img src=x onerror=window.__pwned=1><b>bold</b>';
  const description = '<script>window.__pwned=2</script><img src=x onerror="window.__pwned=3">';
  const me = await signUpViaApi(page.request, newAccount('bxss'));
  const postId = await postViaApi(page.request, `${tag()} harmless photo`);
  const response = await page.request.post(API.boards, { data: { name, description } });
  expect(response.status()).toBe(201);
  const board = ((await response.json()) as BoardResponse).board;
  await saveViaApi(page.request, board.id, postId);
  const nothingRan = async () => {
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(page.locator('b', { hasText: 'bold' })).toHaveCount(0);
  };

  await page.goto(`/@${me.username}/boards`);
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
  await nothingRan();
  await page.goto(`/@${me.username}/boards/${board.slug}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText(description)).toBeVisible();
  await nothingRan();
  await page.goto(`/post/${postId}`);
  await expect(saveButton(page)).toHaveText(COPY.boards.saved(name));
  await saveButton(page).click();
  await expect(page.getByRole('dialog', { name: BOARD_COPY.pickerTitle }).getByText(name)).toBeVisible();
  await nothingRan();
});
