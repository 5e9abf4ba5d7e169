import type { NotificationPreferences, PushDevice } from '../../../../shared/api/activity';
import { ACTIVITY_COPY } from '../../../../shared/activity-copy';
import button from '../../../ui/button.module.css';
import { FormErrors } from '../../../ui/FormErrors';
import { usePushDevice } from '../use-push-device';
import styles from './NotificationSettings.module.css';
import deviceRow from '../../../ui/device-row.module.css';

const added = (device: PushDevice) =>
  ACTIVITY_COPY.deviceAdded(new Date(device.createdAt).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }));

interface DeviceListProps {
  devices: PushDevice[];
  thisDeviceId: string | null;
  busy: boolean;
  onRemove: (id: string) => void;
}

/** The devices push goes to, this one marked; each can be removed from here. */
function DeviceList({ devices, thisDeviceId, busy, onRemove }: DeviceListProps) {
  if (devices.length === 0) return <p className={styles.hint}>{ACTIVITY_COPY.noDevices}</p>;
  return (
    <ul className={styles.list} aria-labelledby="push-devices">
      {devices.map((device) => {
        const current = device.id === thisDeviceId;
        return (
          <li key={device.id} className={deviceRow.row}>
            <div className={deviceRow.text}>
              <p className={deviceRow.name}>{device.label}</p>
              <p className={deviceRow.when}>
                {current && <span className={deviceRow.badge}>{ACTIVITY_COPY.thisDevice}</span>}
                <time dateTime={device.createdAt}>{added(device)}</time>
              </p>
            </div>
            <button
              type="button"
              className={button.secondary}
              disabled={busy}
              aria-label={`${ACTIVITY_COPY.removeDeviceLabel(device.label)}${current ? ` (${ACTIVITY_COPY.thisDevice})` : ''}`}
              onClick={() => onRemove(device.id)}
            >
              {ACTIVITY_COPY.removeDevice}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Push on this device: turned on only when asked (the browser's permission prompt comes from
 * that click, never on load), or off again; then every device that has it.
 */
export function PushSection({ preferences }: { preferences: NotificationPreferences }) {
  const push = usePushDevice(preferences);
  const { thisDeviceId } = push;
  return (
    <section className={styles.section} aria-labelledby="push-title">
      <h2 id="push-title" className={styles.heading}>
        {ACTIVITY_COPY.pushTitle}
      </h2>
      <p className={styles.hint}>{ACTIVITY_COPY.pushHint}</p>
      {!push.supported ? (
        <p className={styles.note}>{ACTIVITY_COPY.pushUnsupported}</p>
      ) : thisDeviceId ? (
        <button type="button" className={button.secondary} disabled={push.busy} onClick={() => void push.removeDevice(thisDeviceId)}>
          {ACTIVITY_COPY.turnOffPush}
        </button>
      ) : (
        <button type="button" className={button.primary} disabled={push.busy} onClick={() => void push.turnOn()}>
          {ACTIVITY_COPY.turnOnPush}
        </button>
      )}
      <FormErrors messages={push.problem ? [push.problem] : []} />
      <h3 id="push-devices" className={styles.subheading}>
        {ACTIVITY_COPY.devices}
      </h3>
      <DeviceList
        devices={preferences.devices}
        thisDeviceId={thisDeviceId}
        busy={push.busy}
        onRemove={(id) => void push.removeDevice(id)}
      />
    </section>
  );
}
