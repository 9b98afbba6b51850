import { accountCalls } from './accounts';
import { adminCalls } from './admin';
import { alarmMailCalls } from './alarm-mail';
import { alarmCalls } from './alarms';
import { auditReviewCalls } from './audit-review';
import { authCalls } from './auth';
import { devicesIngestCalls } from './devices-ingest';
import { dispositionCalls } from './disposition';
import { devicesQueryCalls } from './devices-query';
import { healthCalls } from './health';
import { integrationsCalls } from './integrations';
import { invitationCalls } from './invitations';
import { kpisCalls } from './kpis';
import { notificationCalls } from './notifications';
import { orgSettingsCalls } from './org-settings';
import { productsCalls } from './products';
import { reportsCalls } from './reports';
import { secondFactorCalls } from './second-factor';
import { tokenCalls } from './tokens';

/** Every call the server serves; the server registers exactly these, the OpenAPI document lists them. */
export const allCalls = [
  ...authCalls,
  ...productsCalls,
  ...orgSettingsCalls,
  ...devicesQueryCalls,
  ...devicesIngestCalls,
  ...tokenCalls,
  ...alarmCalls,
  ...dispositionCalls,
  ...accountCalls,
  ...reportsCalls,
  ...adminCalls,
  ...invitationCalls,
  ...alarmMailCalls,
  ...notificationCalls,
  ...auditReviewCalls,
  ...healthCalls,
  ...integrationsCalls,
  ...kpisCalls,
  ...secondFactorCalls,
] as const;
