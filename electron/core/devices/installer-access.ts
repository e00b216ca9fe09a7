/**
 * What the installer's device screens are held to: the installer or manager role (checked
 * here, whatever the screen shows), and an address the installer typed refused in words before
 * it is saved, tested or opened when it is not among the places devices may use (issue 20,
 * point 6; device-places.ts).
 */
import type { Role } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { DeviceAddress } from '../../devices/device-link';
import { deviceAddressRefusal, type DevicePlaces } from '../../devices/device-places';
import type { UserDirectory } from '../auth/users';
import { DEVICE_ERRORS } from './device-errors';

const INSTALLER_ROLES: readonly Role[] = ['installer', 'manager'];

export function requireInstaller(users: UserDirectory): Result<null> {
  const s = users.require();
  if (!s.ok) return s;
  return INSTALLER_ROLES.includes(s.value.user.role) ? ok(null) : fail('forbidden', DEVICE_ERRORS.installerOnly);
}

/** An address the installer typed, refused in words before it is saved, tested or opened (issue 20, point 6). */
export async function refuseAddress(places: DevicePlaces, a: DeviceAddress): Promise<Result<never> | null> {
  const why = await deviceAddressRefusal(a, places);
  return why ? fail('device_place', why) : null;
}
