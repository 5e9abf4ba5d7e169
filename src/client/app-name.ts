import { DEFAULT_APP_NAME } from '../shared/app-name';
import { serverMeta } from './server-meta';

/** The server writes the product name (APP_NAME) into index.html; read it once. */
export const APP_NAME = serverMeta('application-name') || DEFAULT_APP_NAME;
