/**
 * The groups of calls (`tag` of every call), with the description the OpenAPI
 * document gives each (its top-level `tags`). A call's tag must be one of these.
 */
export const CALL_TAGS = {
  auth: 'Sign-in, the session and the CSRF token; your account, settings, password and user tokens; your organizations and their settings; invitations; terms of service and privacy policy',
  users:
    'Members of the organization: invite, change roles, suspend; roles with their permissions; pending invitations',
  'server-admin': 'Server administration across organizations (server administrators only)',
  keys: 'API keys of the organization: generate, list, revoke, and check a key',
  xt1: 'Tags and their shipment records: xt1 uploads and actions (scan, start, stop, configure, shipment, trip times), records, scans, actions, statistics, alarms (acknowledge, dismiss, recipients), your notifications, release decisions',
  rt: 'Real-time (rt) tags: uploads and actions, and requests sent to the tag',
  nanotag: 'Nanotags: uploads and actions',
  aggregate: 'Data across records: temperature series and known positions',
  devices: 'Assigning tags to an organization',
  reports: 'PDF, CSV and XLSX reports of a record: generate, then download the file',
  calibration: 'Calibration certificates of tags: upload, list, download as PDF',
  products: 'Product definitions, carrier definitions, travel locations and dropdown values',
  'data-display-rules': 'Which record fields each role sees',
  notifications: 'Notification settings and rules of the organization, and the notification log',
  audit: 'The audit trail of the organization, and its CSV',
  kpis: 'Lane and carrier KPIs, and their CSV',
  integrations:
    'Webhooks: endpoints that receive a signed POST for each event they chose, and their delivery log (the messages are under `webhooks`)',
  health: 'Health of the server and its database',
} as const;

export type TCallTag = keyof typeof CALL_TAGS;

/** The tag of the OpenAPI document's `webhooks` (the messages Coldtrace sends). */
export const WEBHOOK_TAG = {
  name: 'webhooks',
  description:
    'The messages Coldtrace POSTs to a webhook endpoint, one per event: signed JSON (docs/api.md, "Webhooks")',
} as const;
