import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '../src/shared/limits.js';
import { int, pick, zipf, type Random } from './seed-random.js';

/** Word lists for realistic-looking seeded users and posts about student life. */

const FIRST_NAMES = [
  'emma',
  'liam',
  'olivia',
  'noah',
  'ava',
  'elijah',
  'sophia',
  'lucas',
  'mia',
  'mateo',
  'amelia',
  'levi',
  'harper',
  'ethan',
  'evelyn',
  'james',
  'luna',
  'leo',
  'ella',
  'jack',
  'chloe',
  'henry',
  'nora',
  'owen',
  'lily',
  'daniel',
  'zoe',
  'samuel',
  'aria',
  'david',
  'grace',
  'joseph',
  'hana',
  'kai',
  'yuki',
  'ren',
  'sofia',
  'diego',
  'camila',
  'mateus',
  'lucia',
  'pablo',
  'elena',
  'marco',
  'giulia',
  'luca',
  'chiara',
  'lea',
  'finn',
  'mila',
  'jonas',
  'lena',
  'paul',
  'clara',
  'felix',
  'anna',
  'emil',
  'ida',
  'oscar',
  'freya',
  'arjun',
  'priya',
  'rohan',
  'aisha',
  'omar',
  'fatima',
  'yusuf',
  'layla',
  'amir',
  'noor',
  'wei',
  'mei',
  'jun',
  'min',
  'jia',
  'hao',
  'seo',
  'jin',
  'tomas',
  'eva',
  'adam',
  'sara',
  'nina',
  'max',
  'alex',
  'sam',
  'charlie',
  'robin',
  'jamie',
  'taylor',
  'jordan',
  'riley',
  'morgan',
  'quinn',
  'kofi',
  'ama',
  'tunde',
  'zara',
  'ines',
  'hugo',
  'louise',
  'jules',
  'chiamaka',
  'sipho',
  'thandi',
  'mateo',
  'valentina',
  'santiago',
  'isabella',
  'nicolas',
  'gabriel',
  'julia',
  'victor',
  'alice',
  'ben',
] as const;

const LAST_NAMES = [
  'smith',
  'johnson',
  'williams',
  'brown',
  'jones',
  'garcia',
  'miller',
  'davis',
  'rodriguez',
  'martinez',
  'hernandez',
  'lopez',
  'gonzalez',
  'wilson',
  'anderson',
  'thomas',
  'taylor',
  'moore',
  'jackson',
  'martin',
  'lee',
  'perez',
  'thompson',
  'white',
  'harris',
  'clark',
  'lewis',
  'walker',
  'hall',
  'young',
  'king',
  'wright',
  'scott',
  'green',
  'baker',
  'adams',
  'nelson',
  'hill',
  'campbell',
  'mitchell',
  'roberts',
  'kim',
  'park',
  'choi',
  'nguyen',
  'tran',
  'wang',
  'li',
  'zhang',
  'chen',
  'liu',
  'tanaka',
  'sato',
  'suzuki',
  'yamamoto',
  'muller',
  'schmidt',
  'schneider',
  'fischer',
  'weber',
  'meyer',
  'wagner',
  'becker',
  'rossi',
  'russo',
  'ferrari',
  'esposito',
  'bianchi',
  'romano',
  'dubois',
  'moreau',
  'laurent',
  'simon',
  'silva',
  'santos',
  'oliveira',
  'souza',
  'costa',
  'pereira',
  'kowalski',
  'nowak',
  'novak',
  'horvat',
  'jansen',
  'devries',
  'bakker',
  'visser',
  'larsen',
  'hansen',
  'nielsen',
  'johansson',
  'andersson',
  'patel',
  'sharma',
  'singh',
  'kumar',
  'gupta',
  'khan',
  'ali',
  'hussain',
  'ahmed',
  'okafor',
  'mensah',
  'adeyemi',
  'diallo',
  'ndlovu',
  'otieno',
  'cohen',
  'levi',
  'murphy',
  'kelly',
  'obrien',
  'byrne',
] as const;

const NAME_SUFFIXES = ['x', 'xo', 'irl', 'official', 'studies', 'eats', 'reads', 'lifts', 'snaps', 'art', 'uni'];

/**
 * A lowercase username such as "emma.wilson", "liam_k", "olivia2004" or "noahreads"; the caller
 * makes it unique. Always matches ^[a-z0-9_.]{3,20}$.
 */
export function username(random: Random): string {
  const first = pick(random, FIRST_NAMES);
  const last = pick(random, LAST_NAMES);
  const year = String(int(random, 1998, 2007));
  const candidates = [
    () => `${first}${last}`,
    () => `${first}.${last}`,
    () => `${first}_${last}`,
    () => `${first}${int(random, 1, 999)}`,
    () => `${first}${year}`,
    () => `${first[0]}${last}`,
    () => `${first}.${last[0]}`,
    () => `${first}_${last[0]}${int(random, 1, 99)}`,
    () => `${first}${pick(random, NAME_SUFFIXES)}`,
    () => `${first}.${pick(random, NAME_SUFFIXES)}`,
    () => `its${first}`,
    () => `${last}.${first}`,
    () => `${first}${last}${year.slice(2)}`,
  ];
  const name = pick(random, candidates)();
  return name.length > USERNAME_MAX_LENGTH ? name.slice(0, USERNAME_MAX_LENGTH).replace(/[._]+$/, '') : name;
}

/** `base` itself when free, otherwise base with digits (kept within 20 characters). */
export function uniqueUsername(random: Random, base: string, taken: Set<string>): string {
  let name = base;
  for (let attempt = 0; taken.has(name) || !isValidUsername(name); attempt++) {
    const digits = String(int(random, 0, attempt < 20 ? 99 : 99_999));
    name = `${base.slice(0, USERNAME_MAX_LENGTH - digits.length)}${digits}`;
  }
  return name;
}

export const isValidUsername = (name: string) =>
  name.length >= USERNAME_MIN_LENGTH && name.length <= USERNAME_MAX_LENGTH && USERNAME_PATTERN.test(name);

const MAJORS = [
  'Biology',
  'Computer Science',
  'Economics',
  'Psychology',
  'Mechanical Eng',
  'Architecture',
  'Law',
  'Medicine',
  'History',
  'Philosophy',
  'Chemistry',
  'Physics',
  'Maths',
  'Fine Arts',
  'Music',
  'Nursing',
  'Business',
  'Political Science',
  'Linguistics',
  'Film Studies',
  'Civil Eng',
  'Data Science',
  'Sociology',
  'Design',
];
const BIO_BITS = [
  'coffee addict',
  'plant parent',
  'night owl',
  'gym at 6am',
  'always in the library',
  'dorm chef',
  'thrift queen',
  'film photographer',
  'part-time barista',
  'RA on floor 3',
  'rowing team',
  'choir nerd',
  'exchange student',
  'room 214',
  'instant ramen expert',
  'board game host',
  'campus radio',
  'bike commuter',
  'first gen student',
  'sleep is optional',
  'here for the memes',
  'vinyl collector',
  'running club',
];

/** A short profile line for about half of the users; the rest leave it empty. */
export function bio(random: Random): string {
  if (random() < 0.5) return '';
  const parts = [`${pick(random, MAJORS)} '${int(random, 25, 30)}`, pick(random, BIO_BITS)];
  if (random() < 0.5) parts.push(pick(random, BIO_BITS));
  return parts.join(' · ');
}

/** ~50 hashtags, most popular first: they are drawn with a Zipf-like skew. */
export const HASHTAGS = [
  'studentliving',
  'dormlife',
  'unilife',
  'campus',
  'finals',
  'studygram',
  'roommates',
  'dormfood',
  'library',
  'coffee',
  'examseason',
  'freshman',
  'latenight',
  'partytime',
  'weekend',
  'roomtour',
  'ramen',
  'mealprep',
  'allnighter',
  'sundayreset',
  'decor',
  'laundryday',
  'gradschool',
  'thesis',
  'springbreak',
  'gameday',
  'homesick',
  'budgeteats',
  'thrifted',
  'plants',
  'fairylights',
  'hallparty',
  'studybreak',
  'notes',
  'deadline',
  'labday',
  'fieldtrip',
  'internship',
  'graduation',
  'moveinday',
  'secondhand',
  'bikecommute',
  'rainyday',
  'sunset',
  'snowday',
  'pizza',
  'bookclub',
  'openmic',
  'karaoke',
  'diy',
] as const;

const SUBJECTS = [
  'my roommate',
  'the whole floor',
  'our study group',
  'I',
  'we',
  'the RA',
  'my lab partner',
  'half the class',
  'the guy next door',
  'our flat',
  'my best friend',
  'the girls from 4B',
  'everyone on campus',
  'the dining hall',
];
const VERBS = [
  'made',
  'burned',
  'cleaned',
  'found',
  'rearranged',
  'decorated',
  'survived',
  'finished',
  'cooked',
  'painted',
  'finally fixed',
  'lost',
  'shared',
  'ordered',
  'built',
  'discovered',
  'ate',
  'organised',
  'hosted',
  'missed',
];
const OBJECTS = [
  'instant ramen',
  'the tiny kitchen',
  'a 3am pizza',
  'the desk setup',
  'fairy lights',
  'our shared fridge',
  'the laundry mountain',
  'a whole lasagna',
  'my notes for the exam',
  'a thrifted armchair',
  'the bunk beds',
  'pancakes for twelve',
  'the group project',
  'a sourdough starter',
  'movie night',
  'the common room',
  'my first essay',
  'a secondhand bike',
  'the monstera',
  'a birthday cake',
  'the chemistry lab report',
  'cheap pasta',
  'our balcony garden',
  'the vending machine',
  'a poster wall',
  'twenty flashcards',
];
const PLACES = [
  'in the common room',
  'at the library',
  'before the exam',
  'after the party',
  'on the 4th floor',
  'during finals week',
  'behind the dining hall',
  'on campus',
  'at 2am',
  'in the lecture hall',
  'on a budget',
  'in our dorm',
  'in the rain',
  'before class',
  'after the lab',
  'this weekend',
  'for the first time',
  'with zero sleep',
  'near the quad',
  'in the basement laundry',
];
const ENDINGS = [
  'again',
  'lol',
  '10/10 would recommend',
  'send help',
  'worth it',
  'never again',
  'no regrets',
  '',
  'who wants some?',
  'still proud',
  'rate it 1-10',
  '😅',
  '🎉',
  '☕️',
  'so cozy',
  'the vibes were immaculate',
  'thanks mom for the recipe',
  'best decision',
  'exam stress is real',
  'tell me I am not the only one',
];
const OPENERS = [
  '',
  '',
  '',
  'Finally!',
  'Update:',
  'POV:',
  'Ok so',
  'Not gonna lie,',
  'Sunday mood:',
  'Day 3 of finals:',
  'Reminder:',
  'Honestly',
  'Plot twist:',
  'Small win:',
  'Throwback:',
];

function sentence(random: Random): string {
  const opener = pick(random, OPENERS);
  const body = `${pick(random, SUBJECTS)} ${pick(random, VERBS)} ${pick(random, OBJECTS)}`;
  const place = random() < 0.7 ? ` ${pick(random, PLACES)}` : '';
  const ending = pick(random, ENDINGS);
  const separator = /^\p{Extended_Pictographic}/u.test(ending) ? ' ' : ', ';
  const text = `${opener ? `${opener} ` : ''}${body}${place}${ending ? `${separator}${ending}` : ''}`;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[!?.]$|\p{Extended_Pictographic}\uFE0F?$/u.test(text) ? '' : '.'}`;
}

const hashtagRank = zipf(HASHTAGS.length, 1, 1.5);
/** How many hashtags a post has: most have one or two, a few none or up to four. */
const TAG_COUNTS = [0, 0, 1, 1, 1, 2, 2, 2, 3, 4];

/**
 * A post description of 20–200 characters: one to a few sentences about student life and
 * 0–4 hashtags, usually at the end, sometimes inside the text.
 */
export function description(random: Random, maxLength: number): string {
  const tags = new Set<string>();
  const tagCount = pick(random, TAG_COUNTS);
  while (tags.size < tagCount) tags.add(HASHTAGS[hashtagRank(random)]!);
  const tagText = [...tags].map((tag) => `#${tag}`).join(' ');
  // Mostly short captions, some long ones.
  const target = Math.min(maxLength, 20 + Math.floor(180 * random() ** 1.6));

  const sentences = [sentence(random)];
  for (;;) {
    const next = sentence(random);
    const length = sentences.join(' ').length + 1 + next.length + (tagText ? tagText.length + 1 : 0);
    if (length > target) break;
    sentences.push(next);
  }
  let text = sentences.join(' ');
  if (tagText) {
    // Sometimes the first tag sits inside the text, as people write "#finals are killing me".
    text = random() < 0.15 ? `${tagText} ${text}` : `${text} ${tagText}`;
  }
  // A long first sentence plus tags can exceed the limit: drop words from the end of the text.
  while (text.length > maxLength) {
    const words = text.split(' ');
    words.splice(words.length - 1 - (tagText && !text.startsWith('#') ? tags.size : 0), 1);
    text = words.join(' ');
  }
  while (text.length < 20) text = `${text} ${sentence(random)}`.slice(0, maxLength);
  return text;
}

function token(random: Random, length: number, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'): string {
  let out = '';
  for (let index = 0; index < length; index++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** A link like people attach: a video, a song, a campus event page, a recipe. */
export function link(random: Random): string {
  const makers = [
    () => `https://www.youtube.com/watch?v=${token(random, 11)}`,
    () => `https://open.spotify.com/track/${token(random, 22)}`,
    () => `https://campus.example/events/${int(random, 100, 9999)}`,
    () => `https://www.instagram.com/p/${token(random, 11)}/`,
    () => `https://recipes.example/${pick(random, ['ramen', 'pasta', 'curry', 'pancakes', 'chili'])}-${int(random, 1, 500)}`,
    () => `https://docs.google.com/document/d/${token(random, 44)}/edit`,
    () => `https://www.reddit.com/r/college/comments/${token(random, 6, 'abcdefghijklmnopqrstuvwxyz0123456789')}/`,
  ];
  return pick(random, makers)();
}

const BOARD_TOPICS = [
  'dorm room ideas',
  'study spots',
  'recipes',
  'cheap eats',
  'room decor',
  'desk setups',
  'trip ideas',
  'outfits',
  'plants',
  'coffee',
  'books to read',
  'gym',
  'art',
  'photography',
  'bikes',
  'thrift finds',
  'campus',
  'weekend plans',
  'gift ideas',
  'posters',
  'lighting',
  'storage hacks',
  'meal prep',
  'baking',
  'hiking',
  'concerts',
  'vinyl',
  'sneakers',
  'exam survival',
  'balcony garden',
];
const BOARD_PREFIXES = ['', '', '', 'my ', 'cozy ', 'cheap ', 'next semester ', 'shared ', 'summer ', 'winter ', 'favourite ', 'future '];
const BOARD_DESCRIPTIONS = [
  'Things I want to try before graduation.',
  'Saving these for the move in September.',
  'Ideas for our flat, add yours!',
  'Budget friendly only.',
  'Everything that made finals week bearable.',
  'For the next road trip with the floor.',
  'Stuff to show my roommate.',
  'Inspiration for the tiny room on the 4th floor.',
];

/** A board name such as "Cozy study spots" or "Recipes 2026": 1–50 characters; the caller makes it unique per owner. */
export function boardName(random: Random): string {
  const name = `${pick(random, BOARD_PREFIXES)}${pick(random, BOARD_TOPICS)}${random() < 0.15 ? ` ${int(random, 2024, 2027)}` : ''}`;
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** An optional board description (empty for about half): at most 200 characters. */
export function boardDescription(random: Random): string {
  return random() < 0.5 ? '' : pick(random, BOARD_DESCRIPTIONS);
}
