import { EARTH_RADIUS_METRES, haversineMetres, type GeoPoint } from '@coldtrace/domain';

/** Positions along a route: great-circle interpolation and small offsets in metres. */

const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

export { haversineMetres, type GeoPoint };

/**
 * The point a fraction `f` (0..1) of the way from `a` to `b` along the great
 * circle (spherical linear interpolation of the unit vectors).
 */
export function interpolateGreatCircle(a: GeoPoint, b: GeoPoint, f: number): GeoPoint {
  const [la1, lo1, la2, lo2] = [
    rad(a.latitude),
    rad(a.longitude),
    rad(b.latitude),
    rad(b.longitude),
  ];
  const p1 = [Math.cos(la1) * Math.cos(lo1), Math.cos(la1) * Math.sin(lo1), Math.sin(la1)];
  const p2 = [Math.cos(la2) * Math.cos(lo2), Math.cos(la2) * Math.sin(lo2), Math.sin(la2)];
  const dot = Math.min(1, Math.max(-1, p1[0]! * p2[0]! + p1[1]! * p2[1]! + p1[2]! * p2[2]!));
  const omega = Math.acos(dot);
  if (omega < 1e-12) return { latitude: a.latitude, longitude: a.longitude };
  const s = Math.sin(omega);
  const wa = Math.sin((1 - f) * omega) / s;
  const wb = Math.sin(f * omega) / s;
  const [x, y, z] = [0, 1, 2].map((i) => wa * p1[i]! + wb * p2[i]!) as [number, number, number];
  return { latitude: deg(Math.atan2(z, Math.hypot(x, y))), longitude: deg(Math.atan2(y, x)) };
}

/** A point moved `north` and `east` metres (flat approximation, fine for a few kilometres). */
export function offsetMetres(p: GeoPoint, north: number, east: number): GeoPoint {
  const latitude = p.latitude + deg(north / EARTH_RADIUS_METRES);
  const cos = Math.max(0.01, Math.cos(rad(p.latitude)));
  let longitude = p.longitude + deg(east / (EARTH_RADIUS_METRES * cos));
  if (longitude > 180) longitude -= 360;
  if (longitude < -180) longitude += 360;
  return { latitude: Math.max(-90, Math.min(90, latitude)), longitude };
}

/** Six decimals (about 0.1 m), as a phone reports a position. */
export function roundPosition(p: GeoPoint): GeoPoint {
  return {
    latitude: Math.round(p.latitude * 1e6) / 1e6,
    longitude: Math.round(p.longitude * 1e6) / 1e6,
  };
}
