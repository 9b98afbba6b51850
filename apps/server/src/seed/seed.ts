import { and, count, eq, sql } from 'drizzle-orm';
import type { Config } from '../config';
import { findActiveTerms } from '../modules/legal';
import { generatePassword, hashPassword } from '../modules/identity';
import { passwordProblem } from '../modules/identity';
import { createOrganization, ensureBuiltInRoles, setMembership } from '../modules/orgs';
import type { Database, Db } from '../db/client';
import { seedDemoRecords, type DemoRecordsResult } from './seed-demo';
import {
  memberships,
  organizations,
  privacyPolicies,
  termsOfService,
  tosAgreements,
  users,
} from '../db/schema';

/**
 * First-start data. Idempotent: safe on every start, and run under the
 * start-up lock by `server.ts`.
 * - the first terms of service and privacy policy, when none exist;
 * - the built-in roles in every organization that lacks them;
 * - on an empty database: the first administrator (`admin`, ADMIN_EMAIL,
 *   ADMIN_PASSWORD or a generated one returned once for the log), then the
 *   demo organizations (SEED_DEMO) or, without them, one organization to work in;
 * - with `demoRecords` (the server passes it; tests leave it out, it takes
 *   seconds), the demo organization's configuration and a few dozen shipment
 *   records made by the simulator's generator (`seed-demo.ts`).
 */

export const ADMIN_USERNAME = 'admin';
export const DEMO_ORGANIZATIONS = ['Demo Organization', 'Demo Pharma Logistics'] as const;
export const FIRST_ORGANIZATION = 'My Organization';

export type SeedConfig = Pick<Config, 'adminEmail' | 'adminPassword' | 'seedDemo' | 'argon2'>;

export interface SeedLogger {
  info(msg: string): void;
  warn?(msg: string): void;
}

export interface SeedOptions {
  /** Also fill the first demo organization with demo records (first start with SEED_DEMO only). */
  demoRecords?: boolean;
  /** "Now" of the demo records (default: the current time). */
  now?: Date;
  /** A pool for the demo uploads, several at a time (the seed's connection holds the lock). */
  pool?: Database;
}

export interface SeedResult {
  /** The first administrator was created by this run. */
  adminCreated: boolean;
  /** Set only when the administrator was created with a generated password: log it once. */
  generatedAdminPassword?: string;
  /** What the demo records seeding did, when it ran. */
  demoRecords?: DemoRecordsResult;
}

const TERMS_V1 = `Coldtrace Terms of Use (version 1)

1. The service. Coldtrace records and displays temperature data read from temperature-logging tags attached to shipments, and notifies the people you choose when a reading leaves its limits.

2. Your account. Keep your password secret and tell your administrator at once if you believe someone else has used your account. You act on behalf of the organization that invited you, and you see only that organization's data.

3. Your data. Temperature records, scans, alarms, acknowledgements and reports belong to your organization. Every change made to regulated data is kept in an audit trail that cannot be edited.

4. Your responsibility. Coldtrace supports, and does not replace, your quality procedures. Decide on the release or rejection of goods according to your own procedures, on the basis of the complete record.

5. Availability. We aim to keep the service available at all times but do not guarantee uninterrupted operation. Data read while offline is uploaded when the connection returns.

6. Changes. When these terms change you will be asked to agree to the new version before you continue.

# Warranty

7. Warranty. The service operator warrants that Coldtrace stores the readings uploaded from your tags without alteration, computes excursions, alarms and reports from them as documented, and keeps every alarm, acknowledgement, signature and audit entry once recorded. Report a suspected defect to your administrator or the service operator; confirmed defects are corrected without charge. Coldtrace does not warrant the accuracy of a tag's sensor or calibration, which is the responsibility of the tag's maker and of your calibration procedures, nor the fitness of a shipment for release, which remains your quality decision (clause 4). Apart from this warranty and what the law requires, the service is provided as is.`;

const PRIVACY_POLICY = `Coldtrace Privacy Policy

What we collect: your name, e-mail address and username; the organizations and roles you hold; your settings (temperature unit, time zone, notification choices); and, with each scan you make, the time, your position when your device shares it, and the type and version of the app used.

Why: to sign you in, to show your organization's shipment records, to send the alarm notifications you or your organization ask for, and to keep the audit trail that regulated storage and transport require.

Who sees it: the members of your organization with the permission to view it, and the service operator for support and security. We do not sell personal data or use it for advertising.

How long: account data is kept while your account exists; audit records as long as the law requires of your organization.

Your rights: ask your organization's administrator to see, correct or delete your personal data.`;

async function ensureLegalTexts(db: Db): Promise<void> {
  const [terms] = await db.select({ n: count() }).from(termsOfService);
  if ((terms?.n ?? 0) === 0) {
    await db
      .insert(termsOfService)
      .values({ version: 1, content: TERMS_V1, active: true })
      .onConflictDoNothing();
  }
  const [policies] = await db.select({ n: count() }).from(privacyPolicies);
  if ((policies?.n ?? 0) === 0) {
    await db.insert(privacyPolicies).values({ content: PRIVACY_POLICY, active: true });
  }
}

async function findAdmin(db: Db) {
  const [admin] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, ADMIN_USERNAME));
  return admin;
}

/** An organization by exact name, created (with its roles) when missing. */
async function findOrCreateOrganization(db: Db, name: string): Promise<string> {
  const [found] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.name, name))
    .limit(1);
  if (found) return found.id;
  return (await createOrganization(db, name)).organization.id;
}

/**
 * Demo data: the two demo organizations, with the administrator as
 * Administrator of both (so the organization switcher has something to
 * switch); with `demoRecords`, the first one ("Demo Organization") also gets
 * the demo configuration and shipment records (`seed-demo.ts`). Idempotent.
 */
export async function seedDemo(
  db: Database,
  log: SeedLogger,
  options: SeedOptions = {},
): Promise<DemoRecordsResult | undefined> {
  const admin = await findAdmin(db);
  const organizationIds: string[] = [];
  for (const name of DEMO_ORGANIZATIONS) {
    const organizationId = await findOrCreateOrganization(db, name);
    organizationIds.push(organizationId);
    if (admin) {
      const [member] = await db
        .select({ id: memberships.id })
        .from(memberships)
        .where(
          and(eq(memberships.userId, admin.id), eq(memberships.organizationId, organizationId)),
        );
      if (!member) await setMembership(db, admin.id, organizationId, 'Administrator');
    }
  }
  let records: DemoRecordsResult | undefined;
  if (options.demoRecords && admin) {
    const started = Date.now();
    records = await seedDemoRecords(db, organizationIds[0]!, admin, log, {
      ...(options.now ? { now: options.now } : {}),
      ...(options.pool ? { pool: options.pool } : {}),
    });
    if (records.shipments > 0) {
      log.info(
        `demo records: ${records.shipments} shipments (${records.uploads} uploads) in ` +
          `${DEMO_ORGANIZATIONS[0]} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  }
  log.info(`demo data ready: ${DEMO_ORGANIZATIONS.join(', ')}`);
  return records;
}

export async function seed(
  db: Database,
  config: SeedConfig,
  log: SeedLogger,
  options: SeedOptions = {},
): Promise<SeedResult> {
  await ensureLegalTexts(db);
  for (const org of await db.select({ id: organizations.id }).from(organizations)) {
    await ensureBuiltInRoles(db, org.id);
  }

  const [existingUsers] = await db.select({ n: count() }).from(users);
  if ((existingUsers?.n ?? 0) > 0) return { adminCreated: false };

  const generated = config.adminPassword === undefined ? generatePassword() : undefined;
  // The first administrator's password obeys the password rules like any other.
  const weak = await passwordProblem(config.adminPassword ?? generated!, {
    username: ADMIN_USERNAME,
    email: config.adminEmail,
  });
  if (weak) throw new Error(`ADMIN_PASSWORD is refused: ${weak}`);
  const [admin] = await db
    .insert(users)
    .values({
      username: ADMIN_USERNAME,
      email: config.adminEmail,
      firstName: 'Server',
      lastName: 'Administrator',
      passwordHash: await hashPassword(config.adminPassword ?? generated!, config.argon2),
      isServerAdmin: true,
    })
    .returning();
  const terms = await findActiveTerms(db);
  if (terms) await db.insert(tosAgreements).values({ userId: admin!.id, tosId: terms.id });
  log.info(`created the first administrator '${ADMIN_USERNAME}' <${config.adminEmail}>`);

  let demoRecords: DemoRecordsResult | undefined;
  if (config.seedDemo) {
    demoRecords = await seedDemo(db, log, options);
  } else {
    const [anyOrg] = await db.select({ id: organizations.id }).from(organizations).limit(1);
    const organizationId = anyOrg?.id ?? (await findOrCreateOrganization(db, FIRST_ORGANIZATION));
    await setMembership(db, admin!.id, organizationId, 'Administrator');
  }
  return {
    adminCreated: true,
    ...(generated !== undefined ? { generatedAdminPassword: generated } : {}),
    ...(demoRecords !== undefined ? { demoRecords } : {}),
  };
}
