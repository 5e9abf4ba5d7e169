import { DEFAULT_APP_NAME } from '../shared/app-name';

/** The server writes the product name (APP_NAME) into index.html; read it once. */
export const APP_NAME = document.querySelector<HTMLMetaElement>('meta[name="application-name"]')?.content || DEFAULT_APP_NAME;
