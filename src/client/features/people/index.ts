export { useBlockedAccounts, useSetBlocked } from './api/blocks';
