import { z } from 'zod';

/** Org: id, name (spec section 3, "Organization"). */
export const ZOrg = z.object({ id: z.string(), name: z.string() }).meta({ id: 'Org' });
export type TOrg = z.infer<typeof ZOrg>;

/** Organization creation takes name (required). */
export const ZOrgCreate = z.object({ name: z.string().trim().min(1).max(200) });
export type TOrgCreate = z.infer<typeof ZOrgCreate>;

/** Context switch takes id. */
export const ZOrgSwitch = z.object({ id: z.string().min(1) });
export type TOrgSwitch = z.infer<typeof ZOrgSwitch>;
