import { CONFUSABLE_PAIRS } from './confusables.js';

/** Each confusable character's prototype (confusables.ts), by code point. */
const PROTOTYPES: ReadonlyMap<number, string> = new Map(
  CONFUSABLE_PAIRS.split(/\s+/)
    .filter(Boolean)
    .map((pair) => {
      const [source, prototype] = pair.split('>') as [string, string];
      return [parseInt(source, 16), String.fromCodePoint(...prototype.split('.').map((hex) => parseInt(hex, 16)))];
    }),
);

/** Characters that show nothing (zero-width spaces and joiners, variation selectors, soft hyphens...). */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Each character replaced by its prototype, in NFD. */
function mapOnce(text: string, keepAscii: boolean): string {
  let mapped = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    mapped += keepAscii && code < 0x80 ? char : (PROTOTYPES.get(code) ?? char);
  }
  return mapped.normalize('NFD');
}

/**
 * The skeleton of Unicode TS #39 (section 4): NFD, default-ignorable characters removed, each
 * character replaced by its prototype, NFD again. Two texts look alike when their skeletons are
 * equal ('pаypаl' with Cyrillic а's and 'paypal'; 'rn' and 'm'). Never shown: it is a key, not a
 * spelling. `keepAscii` leaves ASCII as it is (see lookalikeKey).
 *
 * The mapping is repeated until nothing changes (a second pass changes 13 of today's characters): a
 * prototype's NFD can hold a mark that maps on (Ǆ gives D, Z and a caron, which looks like a
 * breve), and a key must be the same for a text and for its skeleton.
 */
export function skeleton(text: string, { keepAscii = false } = {}): string {
  let current = text.normalize('NFD').replace(IGNORABLE, '');
  for (let pass = 0; pass < 4; pass += 1) {
    const next = mapOnce(current, keepAscii);
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * What two names are compared by for uniqueness (e-mail addresses, a user's own board names):
 * equal keys mean one would pass for the other. Compatibility forms (full-width ａ, ligatures)
 * are folded first (NFKC), then the skeleton is taken, then case is folded: the skeleton comes
 * first because a capital of another script looks like a Latin capital, not like its own small
 * letter (Cyrillic В is B, but в is not b). Names that differ only in case are the same name
 * anyway (addresses are stored in lower case; boards have a unique lower(name) too).
 *
 * Plain ASCII stays itself: two texts that differ in ASCII are different names, so a character
 * from another script (Cyrillic а, Greek ο), an invisible one or a compatibility form is a
 * look-alike, but 'paul1' and 'paull', or 'morris' and 'rnorris', are two people. The full
 * skeleton would make them one, and an e-mail address is given by its provider, not chosen: a
 * student whose real address differs from another's only by 1 and l could never sign up.
 */
export function lookalikeKey(text: string): string {
  return skeleton(text.normalize('NFKC'), { keepAscii: true }).toLowerCase().normalize('NFD');
}
