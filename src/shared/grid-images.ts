/**
 * How a grid card's photo is chosen, as both sides need it: the client's cards (client/ui/
 * use-column-count.ts) and the server, which preloads the first cards' photos of a phone's home
 * page (issue 28) and must ask for exactly the source the cards will choose.
 */

/**
 * Grid photos are fetched for at most 2 device pixels per CSS pixel: on a 3× phone screen a 2×
 * photo is hard to tell apart in a card, and costs about half the bytes on campus Wi-Fi.
 */
export const DENSITY_CAP = 2;

/**
 * How many cards load their photos at once, at high priority, without waiting for the observer:
 * a phone's first screen (two columns, three cards deep with the usual mix of square and tall
 * photos: at 412×823 the seventh card starts below the fold). The server preloads them with a
 * phone's home page. With only the top four, the largest photo of the first screen was often a
 * later one, asked for only once the grid had rendered; with eight, the two below the fold took
 * the slow network from the script and the first screen's photos (Lighthouse's phone, home feed
 * LCP 2,451–2,526 ms with eight, 2,369–2,389 ms with six: 2026-11-27).
 */
export const EAGER_CARDS = 6;

/** Below 600 px the grid has two columns with 12 px gutters: each card is half the screen less this. */
const PHONE_CARD_INSET_PX = 18;
export const PHONE_CARD_WIDTH = `calc(50vw - ${PHONE_CARD_INSET_PX}px)`;

/**
 * The widest phone screen (below 600 px) on which a card chooses a variant `variantWidth` px
 * wide over any larger one, whatever its density: the card is at most variantWidth ÷
 * DENSITY_CAP CSS px there (436 px for the 400 px variant). A wider phone screen takes the next.
 */
export const widestPhoneFor = (variantWidth: number) => Math.floor(2 * (variantWidth / DENSITY_CAP + PHONE_CARD_INSET_PX));
