import { useEffect, useState } from 'react';
import type { NotificationPreferences } from '../../../shared/api/activity';
import { ACTIVITY_COPY } from '../../../shared/activity-copy';
import { ApiError } from '../../api/http';
import { usePushDevices } from './api/notification-settings';
import { deviceIdOf } from '../../../shared/push-device';
import { currentSubscription, pushSupported, subscribe, subscriptionBody } from './push-subscription';

/** This browser's subscription and the id the server knows it by. */
interface ThisDevice {
  subscription: PushSubscription;
  id: string;
}

async function findThisDevice(): Promise<ThisDevice | null> {
  const subscription = await currentSubscription();
  return subscription ? { subscription, id: await deviceIdOf(subscription.endpoint) } : null;
}

/** What a refusal says: the server's own words for too many devices or too many tries, else "try again". */
const failureText = (error: unknown) =>
  error instanceof ApiError && (error.status === 409 || error.status === 429) ? error.message : ACTIVITY_COPY.pushFailed;

/**
 * Push on this browser, for Settings → Notifications: whether it can have it, whether it has it
 * (a subscription the server lists), and turning it on and off, with what went wrong.
 */
export function usePushDevice(preferences: NotificationPreferences) {
  const supported = pushSupported();
  const [device, setDevice] = useState<ThisDevice | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { add, remove } = usePushDevices();

  useEffect(() => {
    if (!supported) return;
    let live = true;
    findThisDevice().then(
      (found) => live && setDevice(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [supported]);

  const run = async (work: () => Promise<void>, failure: (error: unknown) => string) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (error) {
      setProblem(failure(error));
    } finally {
      setBusy(false);
    }
  };

  const turnOn = () =>
    run(async () => {
      const subscription = await subscribe(preferences.publicKey);
      if (subscription === 'denied') return setProblem(ACTIVITY_COPY.pushDenied);
      if (subscription === 'dismissed') return;
      const body = subscriptionBody(subscription);
      try {
        if (!body) throw new Error('a push subscription without its keys');
        await add.mutateAsync(body);
      } catch (error) {
        // Not kept: the push service would hold a subscription no server sends to.
        await subscription.unsubscribe().catch(() => false);
        throw error;
      }
      setDevice({ subscription, id: await deviceIdOf(subscription.endpoint) });
    }, failureText);

  /** Stops pushing to a device; this one also drops its subscription. */
  const removeDevice = (id: string) =>
    run(
      async () => {
        await remove.mutateAsync(id);
        if (device?.id !== id) return;
        setDevice(null);
        await device.subscription.unsubscribe().catch(() => false);
      },
      () => ACTIVITY_COPY.saveFailed,
    );

  const thisDeviceId = device && preferences.devices.some((d) => d.id === device.id) ? device.id : null;
  return { supported, thisDeviceId, busy, problem, turnOn, removeDevice };
}
