import type { ReactElement } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NotFoundPage } from '../components/not-found-page';
import { RouteErrorPage } from '../components/route-error-page';
import { CentredLayout } from './layouts/centred-layout';
import { ShellLayout } from './layouts/shell-layout';
import { SideNavLayout } from './layouts/side-nav-layout';
import { routes } from './router';

/** Every route of spec section 2, with its layout and the page it shows. */
const SIDE_NAV: [string, string][] = [
  ['/', 'DashboardPage'],
  ['/serveradmin', 'ServerAdminPage'],
  ['/organization/admin', 'ManageUsersPage'],
  ['/organization/apikeys', 'ApiKeysPage'],
  ['/organization/assign-tags', 'AssignTagsPage'],
  ['/allrecords', 'AllRecordsPage'],
  ['/alldevices', 'AllDevicesPage'],
  ['/configuration', 'ConfigurationPage'],
  ['/recorddetails/42', 'RecordDetailPage'],
  ['/search', 'SearchPage'],
  ['/no/such/page', 'NotFoundPage'],
];

const CENTRED: [string, string][] = [
  ['/login', 'LoginPage'],
  ['/forgotpassword', 'ForgotPasswordPage'],
  ['/forgotpasswordconfirm', 'ForgotPasswordConfirmPage'],
  ['/passwordreset/some-uuid/some-token', 'PasswordResetRoute'],
  ['/passwordresetconfirm', 'PasswordResetConfirmRoute'],
  ['/welcome/some-uuid/some-token', 'WelcomeRoute'],
  ['/welcome/passwordresetconfirm', 'WelcomeConfirmRoute'],
  // Ours (issue 34), not the spec's.
  ['/invitation/some-uuid/some-token', 'InvitationPage'],
  ['/tou-agreement', 'TouAgreementPage'],
  ['/terms-of-use', 'TermsOfUsePage'],
  ['/privacy-policy', 'PrivacyPolicyPage'],
  ['/changelog', 'ChangelogPage'],
];

function elementType(route: RouteObject): unknown {
  return (route.element as ReactElement | undefined)?.type;
}

async function pageName(route: RouteObject): Promise<string> {
  if (route.element) return (elementType(route) as { name: string }).name;
  const lazy = route.lazy as () => Promise<{ Component: { name: string } }>;
  return (await lazy()).Component.name;
}

describe('route map [SPEC-2.1, SPEC-2.2]', () => {
  it('has the root error page', () => {
    expect(routes).toHaveLength(1);
    expect((routes[0]!.errorElement as ReactElement).type).toBe(RouteErrorPage);
  });

  it.each(SIDE_NAV)('%s is in the side navigation layout and shows %s', async (path, page) => {
    const matches = matchRoutes(routes, path)!;
    expect(matches).not.toBeNull();
    expect(elementType(matches[1]!.route)).toBe(ShellLayout);
    expect(elementType(matches[2]!.route)).toBe(SideNavLayout);
    expect(matches[2]!.route.handle).toEqual({ sideNavigation: true });
    expect((matches[3]!.route.errorElement as ReactElement).type).toBe(RouteErrorPage);
    expect(await pageName(matches.at(-1)!.route)).toBe(page);
  });

  it.each(CENTRED)('%s is in the centred layout and shows %s', async (path, page) => {
    const matches = matchRoutes(routes, path)!;
    expect(matches).not.toBeNull();
    expect(elementType(matches[1]!.route)).toBe(ShellLayout);
    expect(elementType(matches[2]!.route)).toBe(CentredLayout);
    expect(matches[2]!.route.handle).toBeUndefined();
    expect((matches[3]!.route.errorElement as ReactElement).type).toBe(RouteErrorPage);
    expect(await pageName(matches.at(-1)!.route)).toBe(page);
  });

  it('shows the not-found page for any other path', () => {
    const matches = matchRoutes(routes, '/recorddetails')!;
    expect(elementType(matches.at(-1)!.route)).toBe(NotFoundPage);
  });
});
