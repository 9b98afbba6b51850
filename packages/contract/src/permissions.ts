import { z } from 'zod';

/** The 31 permission names of spec section 6, in the spec's order. */
export const PERMISSION_NAMES = [
  'sysAdminOrgInfo',
  'sysAdminUser',
  'sysAdminLoc',
  'sysOrderPlace',
  'sysOrderNotify',
  'sysDataRead',
  'sysReportView',
  'sysAssignTags',
  'sysReportCreate',
  'sysReportEdit',
  'sysReportDelete',
  'sysConfigCreate',
  'sysConfigEdit',
  'sysConfigUse',
  'sysConfigDelete',
  'notifyStart',
  'notifyReceive',
  'notifyAll',
  'shareAll',
  'shareLink',
  'readerConfigCustom',
  'readerConfig',
  'readerStart',
  'readerStop',
  'readerScan',
  'readerEditRef1',
  'readerEditRef2',
  'readerEditRefShip',
  'rulesEdit',
  'rulesView',
  'awsPacketUpload',
] as const;

export const ZPermissionName = z.enum(PERMISSION_NAMES);
export type TPermissionName = z.infer<typeof ZPermissionName>;

/**
 * Built-in roles (domain rules, section 7). The spec does not name roles; these
 * are ours. Every organization gets them at creation.
 */
export const BUILT_IN_ROLES: Readonly<Record<string, readonly TPermissionName[]>> = {
  Administrator: PERMISSION_NAMES,
  Manager: [
    'sysAdminLoc',
    'sysDataRead',
    'sysReportView',
    'sysReportCreate',
    'sysReportEdit',
    'sysConfigCreate',
    'sysConfigEdit',
    'sysConfigUse',
    'notifyStart',
    'notifyReceive',
    'notifyAll',
    'shareLink',
    'readerConfig',
    'readerStart',
    'readerStop',
    'readerScan',
    'readerEditRef1',
    'readerEditRef2',
    'readerEditRefShip',
    'rulesEdit',
    'rulesView',
  ],
  Operator: [
    'sysDataRead',
    'sysReportView',
    'sysReportCreate',
    'sysConfigUse',
    'notifyReceive',
    'readerConfig',
    'readerStart',
    'readerStop',
    'readerScan',
    'readerEditRef1',
    'readerEditRef2',
    'readerEditRefShip',
    'rulesView',
  ],
  Viewer: ['sysDataRead', 'sysReportView', 'notifyReceive', 'rulesView'],
};
