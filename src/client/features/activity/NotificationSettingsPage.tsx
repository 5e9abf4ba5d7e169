import { useQuery } from '@tanstack/react-query';
import type { NotificationSettings } from '../../../shared/api/activity';
import { ACTIVITY_COPY } from '../../../shared/activity-copy';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { Page } from '../../ui/Page';
import { Skeleton, SkeletonRows } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/use-document-title';
import { notificationSettingsQuery, useSaveNotificationSettings } from './api/notification-settings';
import { PushSection } from './components/PushSection';
import styles from './components/NotificationSettings.module.css';
import { TopicSwitches } from './components/TopicSwitches';

/**
 * Not in the spec (issue 30): Settings → Notifications. Which kinds of notification show in the
 * app and which are pushed, each switch saved as it changes; and push on this device.
 */
export function NotificationSettingsPage() {
  useDocumentTitle(ACTIVITY_COPY.settingsTitle);
  const preferences = useQuery(notificationSettingsQuery());
  // Said of the latest change: "Saved", or that it was not (and the switch went back).
  const save = useSaveNotificationSettings();
  const change = (settings: NotificationSettings) => save.mutate(settings);

  return (
    <Page title={ACTIVITY_COPY.settingsTitle} back width="column">
      <div className={styles.page}>
        {preferences.isPending && (
          <Skeleton>
            <SkeletonRows count={5} />
          </Skeleton>
        )}
        {preferences.isError && (
          <div className={styles.failed}>
            <FormErrors messages={[ACTIVITY_COPY.settingsLoadFailed]} />
            <button type="button" className={button.secondary} onClick={() => void preferences.refetch()}>
              {ACTIVITY_COPY.retry}
            </button>
          </div>
        )}
        {preferences.data && (
          <>
            <section className={styles.section} aria-labelledby="topics-title">
              <h2 id="topics-title" className="visually-hidden">
                {ACTIVITY_COPY.settingsTitle}
              </h2>
              <TopicSwitches settings={preferences.data.settings} pushAvailable={preferences.data.devices.length > 0} onChange={change} />
              {/* A live region, not a status: pages have a status only while they load (tests/e2e/a11y.spec.ts). */}
              <p className={styles.saved} aria-live="polite">
                {save.isSuccess ? ACTIVITY_COPY.saved : ''}
              </p>
              <FormErrors messages={save.isError ? [ACTIVITY_COPY.saveFailed] : []} />
            </section>
            <PushSection preferences={preferences.data} />
          </>
        )}
      </div>
    </Page>
  );
}
