import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  carrierDefinitions,
  organizationSettings,
  productDefinitions,
  travelLocations,
} from '../../db/schema-shipments';

/**
 * Database access of the configuration module: carrier and product
 * definitions, travel locations and the organization settings. Every query
 * takes the organization id and scopes by it, so another organization's row
 * is never read or written (the service answers 404).
 */

export type CarrierRow = typeof carrierDefinitions.$inferSelect;
export type ProductRow = typeof productDefinitions.$inferSelect;
export type LocationRow = typeof travelLocations.$inferSelect;
export type OrgSettingsRow = typeof organizationSettings.$inferSelect;

export type ProductValues = Omit<
  typeof productDefinitions.$inferInsert,
  'id' | 'organizationId' | 'created'
>;
export type LocationValues = Omit<
  typeof travelLocations.$inferInsert,
  'id' | 'organizationId' | 'created'
>;
export type OrgSettingsValues = Partial<Omit<OrgSettingsRow, 'organizationId'>>;

/** Name of the unique index on carrier names (organization, lower(name)). */
export const CARRIER_NAME_KEY = 'carrier_definitions_org_name_key';

/** Case-insensitive order by a name column, ties by id (stable). */
const byName = (column: AnyPgColumn, id: AnyPgColumn): SQL[] => [
  asc(sql`lower(${column})`),
  asc(column),
  asc(id),
];

// ---------------------------------------------------------------- carriers

export async function listCarriers(db: Db, organizationId: string): Promise<CarrierRow[]> {
  return db
    .select()
    .from(carrierDefinitions)
    .where(eq(carrierDefinitions.organizationId, organizationId))
    .orderBy(...byName(carrierDefinitions.name, carrierDefinitions.id));
}

export async function findCarrier(
  db: Db,
  organizationId: string,
  id: number,
): Promise<CarrierRow | undefined> {
  const rows = await db
    .select()
    .from(carrierDefinitions)
    .where(
      and(eq(carrierDefinitions.organizationId, organizationId), eq(carrierDefinitions.id, id)),
    )
    .limit(1);
  return rows[0];
}

/** Whether another carrier of the organization has this name, ignoring case. */
export async function carrierNameTaken(
  db: Db,
  organizationId: string,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const rows = await db
    .select({ id: carrierDefinitions.id })
    .from(carrierDefinitions)
    .where(
      and(
        eq(carrierDefinitions.organizationId, organizationId),
        sql`lower(${carrierDefinitions.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(carrierDefinitions.id, exceptId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function insertCarrier(
  db: Db,
  organizationId: string,
  name: string,
): Promise<CarrierRow> {
  const [row] = await db.insert(carrierDefinitions).values({ organizationId, name }).returning();
  return row!;
}

export async function updateCarrier(
  db: Db,
  organizationId: string,
  id: number,
  values: { name?: string },
): Promise<CarrierRow | undefined> {
  const [row] = await db
    .update(carrierDefinitions)
    .set(values)
    .where(
      and(eq(carrierDefinitions.organizationId, organizationId), eq(carrierDefinitions.id, id)),
    )
    .returning();
  return row;
}

// ---------------------------------------------------------------- products

export async function listProducts(db: Db, organizationId: string): Promise<ProductRow[]> {
  return db
    .select()
    .from(productDefinitions)
    .where(eq(productDefinitions.organizationId, organizationId))
    .orderBy(...byName(productDefinitions.productName, productDefinitions.id));
}

/** One product of the organization; `forUpdate` locks the row until the transaction ends. */
export async function findProduct(
  db: Db,
  organizationId: string,
  id: number,
  forUpdate = false,
): Promise<ProductRow | undefined> {
  const query = db
    .select()
    .from(productDefinitions)
    .where(
      and(eq(productDefinitions.organizationId, organizationId), eq(productDefinitions.id, id)),
    )
    .limit(1);
  const rows = forUpdate ? await query.for('update') : await query;
  return rows[0];
}

export async function insertProduct(
  db: Db,
  organizationId: string,
  values: ProductValues,
): Promise<ProductRow> {
  const [row] = await db
    .insert(productDefinitions)
    .values({ ...values, organizationId })
    .returning();
  return row!;
}

export async function updateProduct(
  db: Db,
  organizationId: string,
  id: number,
  values: Partial<ProductValues>,
): Promise<ProductRow | undefined> {
  if (Object.keys(values).length === 0) return findProduct(db, organizationId, id);
  const [row] = await db
    .update(productDefinitions)
    .set(values)
    .where(
      and(eq(productDefinitions.organizationId, organizationId), eq(productDefinitions.id, id)),
    )
    .returning();
  return row;
}

// ---------------------------------------------------------------- travel locations

/** The organization's travel locations; `only` keeps the origins or the destinations. */
export async function listLocations(
  db: Db,
  organizationId: string,
  only?: 'origin' | 'destination',
): Promise<LocationRow[]> {
  return db
    .select()
    .from(travelLocations)
    .where(
      and(
        eq(travelLocations.organizationId, organizationId),
        only === 'origin' ? eq(travelLocations.origin, true) : undefined,
        only === 'destination' ? eq(travelLocations.destination, true) : undefined,
      ),
    )
    .orderBy(...byName(travelLocations.name, travelLocations.id));
}

export async function findLocation(
  db: Db,
  organizationId: string,
  id: number,
): Promise<LocationRow | undefined> {
  const rows = await db
    .select()
    .from(travelLocations)
    .where(and(eq(travelLocations.organizationId, organizationId), eq(travelLocations.id, id)))
    .limit(1);
  return rows[0];
}

export async function insertLocation(
  db: Db,
  organizationId: string,
  values: LocationValues,
): Promise<LocationRow> {
  const [row] = await db
    .insert(travelLocations)
    .values({ ...values, organizationId })
    .returning();
  return row!;
}

export async function updateLocation(
  db: Db,
  organizationId: string,
  id: number,
  values: Partial<LocationValues>,
): Promise<LocationRow | undefined> {
  if (Object.keys(values).length === 0) return findLocation(db, organizationId, id);
  const [row] = await db
    .update(travelLocations)
    .set(values)
    .where(and(eq(travelLocations.organizationId, organizationId), eq(travelLocations.id, id)))
    .returning();
  return row;
}

// ---------------------------------------------------------------- organization settings

/**
 * The organization's settings row, created with the database defaults (1000 m,
 * 2 points) the first time it is asked for. `forUpdate` locks it until the
 * transaction ends.
 */
export async function ensureOrgSettings(
  db: Db,
  organizationId: string,
  forUpdate = false,
): Promise<OrgSettingsRow> {
  const select = () => {
    const query = db
      .select()
      .from(organizationSettings)
      .where(eq(organizationSettings.organizationId, organizationId))
      .limit(1);
    return forUpdate ? query.for('update') : query;
  };
  const [found] = await select();
  if (found) return found;
  const [inserted] = await db
    .insert(organizationSettings)
    .values({ organizationId })
    .onConflictDoNothing({ target: organizationSettings.organizationId })
    .returning();
  if (inserted) return inserted;
  // Another request created it in the meantime.
  const [again] = await select();
  return again!;
}

export async function updateOrgSettings(
  db: Db,
  organizationId: string,
  values: OrgSettingsValues,
): Promise<OrgSettingsRow> {
  const [row] = await db
    .update(organizationSettings)
    .set(values)
    .where(eq(organizationSettings.organizationId, organizationId))
    .returning();
  return row!;
}
