import { UNKNOWN_LATITUDE, UNKNOWN_LONGITUDE, type TDistanceUnit } from '@coldtrace/contract';

/**
 * Distances for the geo-fences (domain rules section 4): radii are stored with
 * a unit and compared in metres; distance is great-circle (haversine).
 *
 * Factors are those of the usual GIS distance table (GeoDjango's
 * `Distance.UNITS`, itself from EPSG). Where GeoDjango prints a rounded literal
 * of an EPSG ratio we use the ratio: survey_ft 1200/3937, british_yd
 * 36/39.370147, british_chain_sears 792/39.370147, british_chain_benoit
 * 792/39.370113 (they agree with GeoDjango to ten significant digits).
 */
export const METRES_PER_UNIT: Readonly<Record<TDistanceUnit, number>> = {
  cm: 0.01,
  ft: 0.3048,
  inch: 0.0254,
  km: 1000,
  m: 1,
  um: 0.000001,
  mm: 0.001,
  mi: 1609.344,
  yd: 0.9144,
  nm: 1852,
  nm_uk: 1853.184,
  furlong: 201.168,
  survey_ft: 1200 / 3937,
  sears_yd: 0.91439841,
  german_m: 1.0000135965,
  indian_yd: 0.914398530744,
  gold_coast_ft: 0.304799710181508,
  british_chain_benoit: 20.116782494375872,
  british_chain_sears: 20.116765121552632,
  british_chain_sears_truncated: 20.116756,
  british_ft: 0.304799471539,
  british_yd: 0.914398414616029,
  chain: 20.1168,
  chain_benoit: 20.116782,
  chain_sears: 20.1167645,
  clarke_ft: 0.3047972654,
  clarke_link: 0.201166195164,
  link: 0.201168,
  link_benoit: 0.20116782,
  link_sears: 0.20116765,
  fathom: 1.8288,
  rod: 5.0292,
};

/** `value` in `unit`, in metres. */
export function toMetres(value: number, unit: TDistanceUnit): number {
  return value * METRES_PER_UNIT[unit];
}

/** `metres` in `unit`. */
export function fromMetres(metres: number, unit: TDistanceUnit): number {
  return metres / METRES_PER_UNIT[unit];
}

/** Mean earth radius (IUGG), metres. */
export const EARTH_RADIUS_METRES = 6_371_008.8;

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/**
 * Whether a position is known: finite, in range, and not the "unknown"
 * sentinels -91 / -181 (domain rules section 4: such samples never move a trip
 * and never appear on a map).
 */
export function isKnownPosition({ latitude, longitude }: GeoPoint): boolean {
  if (latitude === UNKNOWN_LATITUDE || longitude === UNKNOWN_LONGITUDE) return false;
  return Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
}

const toRadians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Great-circle distance in metres (haversine formula on a sphere of the mean earth radius). */
export function haversineMetres(a: GeoPoint, b: GeoPoint): number {
  const halfDeltaLatitude = toRadians(b.latitude - a.latitude) / 2;
  const halfDeltaLongitude = toRadians(b.longitude - a.longitude) / 2;
  const h =
    Math.sin(halfDeltaLatitude) ** 2 +
    Math.cos(toRadians(a.latitude)) *
      Math.cos(toRadians(b.latitude)) *
      Math.sin(halfDeltaLongitude) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)));
}
