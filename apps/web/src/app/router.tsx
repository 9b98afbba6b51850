import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/not-found-page';
import { PageLoading } from '../components/page-loading';
import { RouteErrorPage } from '../components/route-error-page';
import { loadChunk } from '../lib/chunk-load';
import { CentredLayout } from './layouts/centred-layout';
import { type ShellHandle, ShellLayout } from './layouts/shell-layout';
import { SideNavLayout } from './layouts/side-nav-layout';
import { RootRoute } from './root-route';

/**
 * A lazily loaded page: the feature's `routes` chunk, with the 120 s
 * ChunkLoadError time-out (spec section 8), surfaced through the error page.
 */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await loadChunk(load)) });
}

const dashboard = () => import('../features/dashboard/routes');
const records = () => import('../features/records/routes');
const organization = () => import('../features/organization/routes');
const auth = () => import('../features/auth/routes');
const legal = () => import('../features/legal/routes');

/** Pages in the layout with side navigation, top bar and fixed footer (spec section 2). */
const sideNavPages: RouteObject[] = [
  { index: true, lazy: page(dashboard, (m) => m.DashboardPage) },
  {
    path: 'serveradmin',
    lazy: page(
      () => import('../features/server-admin/routes'),
      (m) => m.ServerAdminPage,
    ),
  },
  { path: 'organization/admin', lazy: page(organization, (m) => m.ManageUsersPage) },
  { path: 'organization/apikeys', lazy: page(organization, (m) => m.ApiKeysPage) },
  { path: 'organization/assign-tags', lazy: page(organization, (m) => m.AssignTagsPage) },
  {
    path: 'organization/webhooks',
    lazy: page(
      () => import('../features/integrations/routes'),
      (m) => m.WebhooksPage,
    ),
  },
  {
    // Ours (issue 37 item 6): the audit-trail review, for administrators (the page checks).
    path: 'audit-review',
    lazy: page(
      () => import('../features/audit-review/routes'),
      (m) => m.AuditReviewPage,
    ),
  },
  { path: 'allrecords', lazy: page(records, (m) => m.AllRecordsPage) },
  {
    path: 'kpis',
    lazy: page(
      () => import('../features/kpis/routes'),
      (m) => m.KpisPage,
    ),
  },
  {
    path: 'alldevices',
    lazy: page(
      () => import('../features/devices/routes'),
      (m) => m.AllDevicesPage,
    ),
  },
  {
    path: 'configuration',
    lazy: page(
      () => import('../features/configuration/routes'),
      (m) => m.ConfigurationPage,
    ),
  },
  {
    path: 'recorddetails/:recordId',
    lazy: page(
      () => import('../features/record-detail/routes'),
      (m) => m.RecordDetailPage,
    ),
  },
  {
    path: 'search',
    lazy: page(
      () => import('../features/search/routes'),
      (m) => m.SearchPage,
    ),
  },
  { path: '*', element: <NotFoundPage /> },
];

/** Pages in the centred layout without side navigation (spec section 2). */
const centredPages: RouteObject[] = [
  { path: 'login', lazy: page(auth, (m) => m.LoginPage) },
  { path: 'forgotpassword', lazy: page(auth, (m) => m.ForgotPasswordPage) },
  { path: 'forgotpasswordconfirm', lazy: page(auth, (m) => m.ForgotPasswordConfirmPage) },
  { path: 'passwordreset/:uuid/:token', lazy: page(auth, (m) => m.PasswordResetRoute) },
  { path: 'passwordresetconfirm', lazy: page(auth, (m) => m.PasswordResetConfirmRoute) },
  { path: 'welcome/:uuid/:token', lazy: page(auth, (m) => m.WelcomeRoute) },
  { path: 'welcome/passwordresetconfirm', lazy: page(auth, (m) => m.WelcomeConfirmRoute) },
  // Ours, not the spec's (issue 34): the invitation link, public like the welcome page.
  { path: 'invitation/:uuid/:token', lazy: page(auth, (m) => m.InvitationPage) },
  { path: 'tou-agreement', lazy: page(legal, (m) => m.TouAgreementPage) },
  { path: 'terms-of-use', lazy: page(legal, (m) => m.TermsOfUsePage) },
  { path: 'privacy-policy', lazy: page(legal, (m) => m.PrivacyPolicyPage) },
  {
    path: 'changelog',
    lazy: page(
      () => import('../features/changelog/routes'),
      (m) => m.ChangelogPage,
    ),
  },
];

/**
 * Every route of spec section 2. Errors of a page show inside its layout; an
 * error of the shell itself reaches the root's error page.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootRoute />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <ShellLayout />,
        children: [
          {
            element: <SideNavLayout />,
            handle: { sideNavigation: true } satisfies ShellHandle,
            children: [
              {
                errorElement: <RouteErrorPage />,
                hydrateFallbackElement: <PageLoading />,
                children: sideNavPages,
              },
            ],
          },
          {
            element: <CentredLayout />,
            children: [
              {
                errorElement: <RouteErrorPage />,
                hydrateFallbackElement: <PageLoading />,
                children: centredPages,
              },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
