import { useId } from 'react';
import type { NotificationSettings, NotificationTopic } from '../../../../shared/api/activity';
import { ACTIVITY_COPY, TOPIC_COPY } from '../../../../shared/activity-copy';
import styles from './NotificationSettings.module.css';

type Channel = keyof NotificationSettings[NotificationTopic];

/** Every topic, in the copy's order (a Record of them all, so none is left out). */
const TOPICS = Object.keys(TOPIC_COPY) as NotificationTopic[];

interface TopicSwitchesProps {
  settings: NotificationSettings;
  /** Some device has push: until then the Push switches would change nothing anyone sees. */
  pushAvailable: boolean;
  onChange: (settings: NotificationSettings) => void;
}

/** One row per kind of notification, each with In the app and Push (real checkboxes). */
export function TopicSwitches({ settings, pushAvailable, onChange }: TopicSwitchesProps) {
  const hintId = useId();
  const set = (topic: NotificationTopic, channel: Channel, on: boolean) =>
    onChange({ ...settings, [topic]: { ...settings[topic], [channel]: on } });
  return (
    <>
      {!pushAvailable && (
        <p id={hintId} className={styles.hint}>
          {ACTIVITY_COPY.pushNeedsDevice}
        </p>
      )}
      <ul className={styles.list}>
        {TOPICS.map((topic) => (
          <li key={topic}>
            <fieldset className={styles.topic}>
              <legend className={styles.legend}>{TOPIC_COPY[topic].label}</legend>
              <p className={styles.topicHint}>{TOPIC_COPY[topic].hint}</p>
              <div className={styles.switches}>
                <label className={styles.switch}>
                  <input type="checkbox" checked={settings[topic].app} onChange={(event) => set(topic, 'app', event.target.checked)} />
                  {ACTIVITY_COPY.inApp}
                </label>
                <label className={styles.switch}>
                  <input
                    type="checkbox"
                    checked={settings[topic].push}
                    disabled={!pushAvailable}
                    aria-describedby={pushAvailable ? undefined : hintId}
                    onChange={(event) => set(topic, 'push', event.target.checked)}
                  />
                  {ACTIVITY_COPY.push}
                </label>
              </div>
            </fieldset>
          </li>
        ))}
      </ul>
    </>
  );
}
