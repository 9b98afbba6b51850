import type { TUser } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import {
  REDIRECT_TARGET_KEY,
  clearRedirectTarget,
  firstPathSegment,
  hasPermission,
  isLoggedIn,
  isPublicPath,
  rememberRedirectTarget,
  sessionOrganization,
  takeRedirectTarget,
  type RedirectStorage,
} from './session';

function memoryStorage(): RedirectStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

const user: TUser = {
  id: 'u1',
  username: 'admin',
  role_memberships: [],
  current_session_permissions: ['sysAdminLoc'],
  settings: { degrees_unit: 'C', timezone: 'UTC' },
  org_settings: { alarm_notify_my_scans_orgs: [], alarm_notify_any_scans_orgs: [] },
  has_agreed_to_tos: true,
  organizations: [
    { id: 'o1', name: 'Demo Organization' },
    { id: 'o2', name: 'Demo Pharma Logistics' },
  ],
  last_session_org_id: 'o2',
};

describe('signed-out pages [SPEC-2.3, SPEC-4]', () => {
  it.each([
    ['/login', true],
    ['/forgotpassword', true],
    ['/forgotpasswordconfirm', true],
    ['/passwordreset/uuid/token', true],
    ['/passwordresetconfirm', true],
    ['/welcome/uuid/token', true],
    ['/welcome/passwordresetconfirm', true],
    // Ours (issue 34): the invitation link opens signed out.
    ['/invitation/uuid/token', true],
    ['/', false],
    ['/allrecords', false],
    ['/terms-of-use', false],
    ['/changelog', false],
    ['/loginx', false],
    ['/records/login', false],
    ['/invitations', false],
  ])('%s is public: %s', (path, expected) => {
    expect(isPublicPath(path)).toBe(expected);
  });

  it('takes the first path segment', () => {
    expect(firstPathSegment('/passwordreset/a/b')).toBe('passwordreset');
    expect(firstPathSegment('/')).toBe('');
  });
});

describe('post-login redirect target [SPEC-2.3, SPEC-4]', () => {
  it('remembers a path with its search and gives it back once', () => {
    const storage = memoryStorage();
    rememberRedirectTarget('/allrecords?pageNumber=0', storage);
    expect(storage.map.get(REDIRECT_TARGET_KEY)).toBe('/allrecords?pageNumber=0');
    expect(takeRedirectTarget(storage)).toBe('/allrecords?pageNumber=0');
    expect(takeRedirectTarget(storage)).toBe('/');
  });

  it('never remembers signed-out pages or other origins', () => {
    const storage = memoryStorage();
    for (const target of ['/login', '/welcome/a/b', '//evil.example/x', 'https://evil.example']) {
      rememberRedirectTarget(target, storage);
    }
    expect(storage.map.size).toBe(0);
    storage.map.set(REDIRECT_TARGET_KEY, '//evil.example');
    expect(takeRedirectTarget(storage)).toBe('/');
  });

  it('remembers the invitation page, which a signed-out visitor leaves to sign in and accept', () => {
    const storage = memoryStorage();
    rememberRedirectTarget('/invitation/uuid/token', storage);
    expect(takeRedirectTarget(storage)).toBe('/invitation/uuid/token');
  });

  it('forgets the target after an explicit sign-out', () => {
    const storage = memoryStorage();
    rememberRedirectTarget('/configuration', storage);
    clearRedirectTarget(storage);
    expect(takeRedirectTarget(storage)).toBe('/');
  });

  it('works without storage', () => {
    rememberRedirectTarget('/x', null);
    expect(takeRedirectTarget(null)).toBe('/');
  });
});

describe('user state [SPEC-2.3, SPEC-4]', () => {
  it('treats a missing or locked user as logged out', () => {
    expect(isLoggedIn(user)).toBe(true);
    expect(isLoggedIn({ ...user, is_locked: false })).toBe(true);
    expect(isLoggedIn({ ...user, is_locked: true })).toBe(false);
    expect(isLoggedIn(null)).toBe(false);
    expect(isLoggedIn(undefined)).toBe(false);
  });

  it('finds the session organization', () => {
    expect(sessionOrganization(user)).toEqual({ id: 'o2', name: 'Demo Pharma Logistics' });
    expect(sessionOrganization({ ...user, last_session_org_id: null })).toBeUndefined();
    expect(sessionOrganization({ ...user, organizations: undefined })).toBeUndefined();
  });

  it('checks permissions, any one of a list', () => {
    expect(hasPermission(user, 'sysAdminLoc')).toBe(true);
    expect(hasPermission(user, 'sysAdminUser')).toBe(false);
    expect(hasPermission(user, ['sysAdminLoc', 'sysAdminUser'])).toBe(true);
    expect(hasPermission({ ...user, is_locked: true }, 'sysAdminLoc')).toBe(false);
    expect(hasPermission(null, 'sysAdminLoc')).toBe(false);
  });
});
