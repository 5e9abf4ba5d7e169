// Verified addresses (issue 29), as other features use them: the panel, the notice, the prompt, and the account's calls.
export { useChangeEmail, useVerifyLink } from './api';
export { useAddressToVerify, VerifyEmailPanel, VerifyNotice, VerifyPrompt } from './VerifyEmail';
