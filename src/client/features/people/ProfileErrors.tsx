import * as COPY from '../../../shared/copy';
import { ApiError } from '../../api/http';
import { APP_NAME } from '../../app-name';
import { Notice } from '../errors';

/** The spec's two profile failures: the user doesn't exist, or anything else went wrong. */
export function ProfileError({ error, username }: { error: unknown; username: string }) {
  if (error instanceof ApiError && error.status === 404) {
    return <Notice title={COPY.profile.missingTitle} message={COPY.profile.missingMessage(username, APP_NAME)} />;
  }
  return <Notice title={COPY.profile.errorTitle} message={COPY.profile.errorMessage} />;
}
