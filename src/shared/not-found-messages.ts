import * as COPY from './copy.js';

/**
 * The texts the not-found page (/404/{error}) may show: only the ones the app itself navigates
 * to. Any other text in that URL is someone else's words shown as a heading and tab title on
 * our origin ("Your session expired. Sign in again at …"), so it gets the plain page.
 */
export const NOT_FOUND_MESSAGES = [COPY.settings.signOutFailed] as const;

export type NotFoundMessage = (typeof NOT_FOUND_MESSAGES)[number];

/** What /404/{error} shows: the error if the app sends it, else 'Not found :('. */
export function notFoundText(error: string | undefined): string {
  return NOT_FOUND_MESSAGES.find((message) => message === error) ?? COPY.notFound;
}
