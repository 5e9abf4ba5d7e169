export { EmptyState } from './EmptyState';
export { Notice } from './Notice';
export { NotFoundPage } from './NotFoundPage';
