import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { locationSamples } from '../../db/schema-shipments';

/** Known positions of the records, oldest first (the sentinels and off-globe values left out). */
export async function listLocations(db: Db, organizationId: string, recordIds: readonly number[]) {
  if (recordIds.length === 0) return [];
  return db
    .select({
      recordId: locationSamples.recordId,
      latitude: locationSamples.latitude,
      longitude: locationSamples.longitude,
      timestamp: locationSamples.timestamp,
    })
    .from(locationSamples)
    .where(
      and(
        eq(locationSamples.organizationId, organizationId),
        inArray(locationSamples.recordId, [...recordIds]),
        sql`${locationSamples.latitude} BETWEEN -90 AND 90`,
        sql`${locationSamples.longitude} BETWEEN -180 AND 180`,
      ),
    )
    .orderBy(
      asc(locationSamples.recordId),
      asc(locationSamples.timestamp),
      asc(locationSamples.id),
    );
}
