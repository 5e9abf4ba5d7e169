/**
 * npm run screenshots: the main screens of the real app, at a phone's and a laptop's size, into
 * docs/screenshots/ (the README shows them).
 *
 * It builds nothing itself: the npm script runs `npm run build` first (or set DIST to another
 * build's directory). It starts the production server on a fresh temporary data directory, fills
 * it through the HTTP API as people would (accounts with icons and bios, photos with hashtags,
 * follows, boards: one shared, one secret), then opens each screen in Chromium and saves a JPEG.
 *
 *   DIST=dist OUT=docs/screenshots PORT=3290 tsx scripts/screenshots.ts
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { generatePhoto } from '../bench/seed-photos.js';
import { stream } from '../bench/seed-random.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import { paths } from '../src/client/paths.js';
import type { BoardList, BoardResponse } from '../src/shared/api/boards.js';
import { API } from '../src/shared/api/paths.js';
import type { PostPage as PostPageResponse, PostResponse } from '../src/shared/api/posts.js';
import { BOARD_COPY } from '../src/shared/boards-copy.js';
import { localServerEnv } from './local-server.js';

const DIST = path.resolve(process.env.DIST || 'dist');
const OUT = path.resolve(process.env.OUT || 'docs/screenshots');
const PORT = Number(process.env.PORT) || 3290;
const BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'studentliving1';

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
] as const;

const PEOPLE = [
  { username: 'maya.k', bio: 'Architecture, 2nd year. Plants, coffee and too many sketchbooks.' },
  { username: 'jonas_b', bio: 'Physics by day, pasta by night. Room 214, knock for snacks.' },
  { username: 'lea.codes', bio: 'CS student, climbing wall regular, collects dorm-room lamps.' },
] as const;

/** What students post: each person's lines in turn, so every profile has a few. */
const DESCRIPTIONS = [
  'Finally got the desk setup right #studentliving #dormlife',
  'Sunday pancakes for the whole floor #breakfast',
  'Library at 8am, nobody here yet #exams',
  'New plant for the windowsill #roomdecor',
  'Campus in the fog this morning #campus',
  'Cheapest pasta recipe that still tastes good #studentfood',
  'Our kitchen after the party... #dormlife',
  'Study group snacks #exams #coffee',
  'Sunset from the roof terrace #campus',
  'Thrifted lamp, 4 euros #roomdecor #studentliving',
  'First snow on the quad #campus',
  'Flat-white number three today #coffee',
  'Laundry day is the best day #dormlife',
  'Movie night in the common room #studentliving',
  'Posters up, room finally feels like mine #roomdecor',
  'Bike repair workshop on campus #campus',
  'Meal prep for the week #studentfood',
  'The coffee machine on floor 2 works again #coffee',
  'Graduation photos of the seniors #studentliving',
  'Late night ramen after the lab #studentfood #dormlife',
];

function startServer(dataDir: string) {
  const server = spawn(process.execPath, [path.join(DIST, 'server/main.js')], {
    env: { ...process.env, ...localServerEnv(PORT, dataDir, DIST) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return server;
}

async function waitForServer() {
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      if ((await fetch(BASE + API.openapi)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not start on ${BASE}`);
}

/**
 * The boards (issue 18): whose they are, and the posts saved on them by their index in
 * DESCRIPTIONS, saved in this order (a board's page shows the last saved first). The Boards tab
 * and the Save picker put the board saved to last first, so the boards are filled from the last
 * to the first here: the tab reads as listed.
 */
const BOARDS = [
  {
    owner: 'maya.k',
    name: 'Room ideas',
    description: 'Lamps, plants and posters for room 3.14. Lea and I are redoing it before the winter break.',
    posts: [0, 6, 3, 14, 13, 12, 9],
    /** Invited and joined; saves the last one of `posts` themselves. */
    collaborator: 'lea.codes',
    /** Chosen by the owner (the thrifted lamp) instead of the newest saved post. */
    cover: 9,
  },
  { owner: 'maya.k', name: 'Study spots', description: 'Where to get work done in exam weeks.', posts: [11, 7, 2, 17] },
  {
    owner: 'maya.k',
    name: 'Gift ideas for Jonas',
    description: 'His birthday is on the 12th. Do not tell him!',
    posts: [15, 13],
    secret: true,
  },
  { owner: 'maya.k', name: 'Cheap eats', description: 'Feeding the floor on a student budget.', posts: [1, 16, 5] },
  { owner: 'maya.k', name: 'Campus in all weather', description: '', posts: [4, 8, 10] },
] as const;

/**
 * The post the Save screen opens the picker on: saved on one board ('Study spots'). The Post
 * screen's post (jonas_b's newest) is on none: it shows Save as most posts do.
 */
const SAVED_POST = 17;

/** One person's session: requests carry their cookie, as the browser would. */
async function register(username: string) {
  const response = await fetch(BASE + API.register, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username.replace('.', '_')}@example.com`, password: PASSWORD }),
  });
  if (response.status !== 201) throw new Error(`register ${username}: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return async (method: string, url: string, body?: FormData | object) => {
    const json = body !== undefined && !(body instanceof FormData);
    const reply = await fetch(BASE + url, {
      method,
      headers: json ? { cookie, 'content-type': 'application/json' } : { cookie },
      body: json ? JSON.stringify(body) : body,
    });
    if (!reply.ok) throw new Error(`${method} ${url}: ${reply.status} ${await reply.text()}`);
    return reply;
  };
}

const jpeg = (buffer: Buffer, name: string) => new File([new Uint8Array(buffer)], name, { type: 'image/jpeg' });

/** Returns the ids of the posts, in DESCRIPTIONS' order. */
async function seed() {
  const random = stream(15, 'screenshots');
  const sessions: Array<Awaited<ReturnType<typeof register>>> = [];
  const postIds: string[] = [];
  for (const person of PEOPLE) {
    const as = await register(person.username);
    const picture = await generatePhoto(random, { width: 600 });
    const icon = await sharp(picture.jpeg).resize(400, 400, { fit: 'cover' }).jpeg({ quality: 85 }).toBuffer();
    const form = new FormData();
    form.set('bio', person.bio);
    form.set('icon', jpeg(icon, 'icon.jpg'));
    await as('PATCH', API.me, form);
    sessions.push(as);
  }
  // Oldest first, so the feed shows the list's end on top, each person's posts spread through it.
  for (const [index, description] of DESCRIPTIONS.entries()) {
    const photo = await generatePhoto(random, { width: 1200 });
    const form = new FormData();
    form.set('photo', jpeg(photo.jpeg, `photo-${index}.jpg`));
    form.set('description', description);
    form.set('link', index % 4 === 0 ? 'https://example.com/campus-news' : '');
    const reply = await sessions[index % sessions.length]!('POST', API.posts, form);
    postIds.push(((await reply.json()) as PostResponse).post.id);
  }
  // Everyone follows everyone else: each profile has followers to list.
  for (const [index, as] of sessions.entries()) {
    for (const [other, person] of PEOPLE.entries()) {
      if (other !== index) await as('PUT', API.follow(person.username));
    }
  }
  const sessionOf = (username: string) => sessions[PEOPLE.findIndex((person) => person.username === username)]!;
  for (const board of [...BOARDS].reverse()) {
    const owner = sessionOf(board.owner);
    const body = { name: board.name, description: board.description, secret: 'secret' in board && board.secret };
    const { id } = ((await (await owner('POST', API.boards, body)).json()) as BoardResponse).board;
    const collaborator = 'collaborator' in board ? board.collaborator : undefined;
    if (collaborator) {
      await owner('PUT', API.boardMember(id, collaborator));
      await sessionOf(collaborator)('POST', API.boardJoin(id));
    }
    for (const [index, post] of board.posts.entries()) {
      const saver = collaborator && index === board.posts.length - 1 ? sessionOf(collaborator) : owner;
      await saver('PUT', API.boardPost(id, postIds[post]!));
    }
    if ('cover' in board) await owner('PATCH', API.board(id), { coverPostId: postIds[board.cover]! });
  }
  return postIds;
}

/** Waits until the screen has settled: requests done, visible pictures decoded, fonts in. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await document.fonts.ready;
    const visible = [...document.images].filter((image) => image.getBoundingClientRect().top < window.innerHeight);
    await Promise.all(visible.map((image) => image.decode().catch(() => undefined)));
  });
  await page.waitForTimeout(300);
}

async function shoot(browser: Browser, postIds: string[]) {
  const me = PEOPLE[0].username;
  const { posts } = (await (await fetch(`${BASE}${API.userPosts(PEOPLE[1].username)}`)).json()) as PostPageResponse;
  const postId = posts[0]!.id;
  // The shared board with the chosen cover: its address (slug) is the server's to give.
  const { boards } = (await (await fetch(`${BASE}${API.userBoards(me)}`)).json()) as BoardList;
  const board = boards.find((candidate) => candidate.name === BOARDS[0].name)!;
  const screens: Array<{ name: string; url: string; signedIn: boolean; open?: (page: Page) => Promise<void> }> = [
    { name: 'login', url: '/login', signedIn: false },
    { name: 'home', url: '/', signedIn: true },
    { name: 'post', url: `/post/${postId}`, signedIn: true },
    { name: 'profile', url: `/@${me}`, signedIn: true },
    { name: 'followers', url: `/@${me}/followers`, signedIn: true },
    { name: 'search', url: '/search/coffee', signedIn: true },
    { name: 'upload', url: '/upload', signedIn: true },
    { name: 'settings', url: '/settings', signedIn: true },
    {
      name: 'boards',
      url: paths.boards(me),
      signedIn: true,
      // On a phone the profile's header fills the first screen: scrolled to the tabs, two rows of
      // boards show (a desktop's page does not scroll).
      open: (page) =>
        page
          .getByRole('link', { name: BOARD_COPY.boardsTab, exact: true })
          .evaluate((tab) => window.scrollBy(0, tab.getBoundingClientRect().top - 16)),
    },
    { name: 'board', url: paths.board(me, board.slug), signedIn: true },
    {
      name: 'save',
      url: paths.post(postIds[SAVED_POST]!),
      signedIn: true,
      // The post page's Save ('Saved · Study spots' here) opens the picker over it.
      open: async (page) => {
        await page.getByRole('main').getByRole('button', { name: /^Save/ }).first().click();
        await page.getByRole('dialog', { name: BOARD_COPY.pickerTitle }).getByRole('button', { pressed: true }).waitFor();
      },
    },
  ];
  await mkdir(OUT, { recursive: true });
  for (const size of SIZES) {
    const { name: sizeName, ...options } = size;
    const context = await browser.newContext({ ...options, baseURL: BASE });
    const page = await context.newPage();
    for (const screen of screens) {
      if (screen.signedIn) {
        const response = await context.request.post(API.login, { data: { identifier: me, password: PASSWORD } });
        if (!response.ok()) throw new Error(`sign in: ${response.status()}`);
      } else {
        await context.clearCookies();
      }
      await page.goto(screen.url);
      await settle(page);
      if (screen.open) {
        await screen.open(page);
        await settle(page);
      }
      const file = path.join(OUT, `${screen.name}-${sizeName}.jpg`);
      await page.screenshot({ path: file, type: 'jpeg', quality: 80 });
      console.log(`saved ${path.relative(process.cwd(), file)}`);
    }
    await context.close();
  }
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'dormboard-screenshots-'));
const server = startServer(dataDir);
try {
  await waitForServer();
  const postIds = await seed();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await shoot(browser, postIds);
  } finally {
    await browser.close();
  }
} finally {
  server.kill();
  await new Promise((resolve) => server.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
