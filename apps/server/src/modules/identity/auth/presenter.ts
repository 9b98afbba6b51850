import type { TUser } from '@coldtrace/contract';
import type { Database } from '../../../db/client';
import { hasAgreedToActiveTerms } from '../../legal';
import type { Principal } from './principal';
import * as repo from './repository';
import { shownTimeZone } from './time-zones';

/** The full user of spec section 3 (reply of session, login, org switch), as the principal sees it now. */
export async function presentUser(db: Database, principal: Principal): Promise<TUser> {
  const { user } = principal;
  const [memberships, settings, orgSettings, hasAgreed] = await Promise.all([
    repo.listMemberships(db, user.id),
    repo.getUserSettings(db, user.id),
    repo.getOrgSettings(db, user.id),
    hasAgreedToActiveTerms(db, user.id),
  ]);
  return {
    id: user.id,
    username: user.username,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    date_joined: user.dateJoined.toISOString(),
    organizations: memberships.map((m) => ({ id: m.organizationId, name: m.organizationName })),
    role_memberships: memberships.map((m) => ({
      id: m.id,
      role_id: m.roleId,
      role_name: m.roleName,
      organization_id: m.organizationId,
    })),
    current_session_permissions: [...principal.permissions],
    // The organization this session works in (two devices may work in two), not the
    // user's last choice on any device: the name shown must match the records shown.
    last_session_org_id: principal.organizationId,
    // A zone stored before the supported list was enforced: shown as the zone it is taken for.
    settings: { degrees_unit: settings.degreesUnit, timezone: shownTimeZone(settings.timezone) },
    org_settings: presentOrgSettings(orgSettings),
    has_agreed_to_tos: hasAgreed,
    is_locked: user.isLocked,
    is_server_admin: user.isServerAdmin,
  };
}

export function presentOrgSettings(
  rows: readonly { organizationId: string; myScans: boolean; anyScans: boolean }[],
) {
  return {
    alarm_notify_my_scans_orgs: rows.filter((r) => r.myScans).map((r) => r.organizationId),
    alarm_notify_any_scans_orgs: rows.filter((r) => r.anyScans).map((r) => r.organizationId),
  };
}
