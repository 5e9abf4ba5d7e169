/** The product name shown in the UI. The server may override it with APP_NAME. */
export const DEFAULT_APP_NAME = 'dormboard';
