/**
 * An address the installer typed on the device screens, refused in words before it is saved,
 * tested or opened when it is not among the places devices may use (issue 20, point 6;
 * device-places.ts). Who may set devices up (an installer or a manager) is the channels'
 * declaration (shared/ipc/devices.ts), enforced by the channel rules.
 */
import { fail, type Result } from '../../../shared/result';
import type { DeviceAddress } from '../../devices/device-link';
import { deviceAddressRefusal, type DevicePlaces } from '../../devices/device-places';

/** An address the installer typed, refused in words before it is saved, tested or opened (issue 20, point 6). */
export async function refuseAddress(places: DevicePlaces, a: DeviceAddress): Promise<Result<never> | null> {
  const why = await deviceAddressRefusal(a, places);
  return why ? fail('device_place', why) : null;
}
