import { latLngBounds, type LatLngTuple } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo } from 'react';
import { CircleMarker, MapContainer, Polyline, TileLayer, Tooltip, useMap } from 'react-leaflet';
import type { MapPoint } from '../display';
import { MAP_COLOURS } from './map-colours';

/**
 * The record's positions on a Leaflet map (loaded with this chunk only):
 * origin and destination marked, the route as a line, the last position
 * highlighted. Circle markers are vector shapes, so no marker images are
 * needed. The tile server is configurable at build time (VITE_MAP_TILE_URL,
 * VITE_MAP_TILE_ATTRIBUTION); without tiles (offline) the shapes still draw.
 * Callers pass known positions only: the -91 / -181 sentinels never get here.
 */

const TILE_URL: string =
  (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ||
  'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string =
  (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined) ||
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

export interface NamedPoint extends MapPoint {
  name: string;
}

export interface LocationsMapProps {
  route: readonly MapPoint[];
  origin: NamedPoint | null;
  destination: NamedPoint | null;
  last: MapPoint | null;
  height: number;
  /** Describes the last position in the marker's tooltip. */
  lastLabel: string;
}

/** Most route samples drawn as dots (the line always has every sample). */
const MAX_DOTS = 400;

const tuple = (p: MapPoint): LatLngTuple => [p.latitude, p.longitude];

function FitToPoints({ points }: { points: readonly LatLngTuple[] }) {
  const map = useMap();
  const key = points.map((p) => p.join(',')).join(';');
  useEffect(() => {
    if (points.length === 0) return;
    if (points.length === 1) map.setView(points[0]!, 11);
    else map.fitBounds(latLngBounds([...points]), { padding: [28, 28], maxZoom: 12 });
    // The key names the points; the array itself is new on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  return null;
}

export default function LocationsMap({
  route,
  origin,
  destination,
  last,
  height,
  lastLabel,
}: LocationsMapProps) {
  const line = useMemo(() => route.map(tuple), [route]);
  const all = useMemo(() => {
    const points = [...line];
    if (origin) points.push(tuple(origin));
    if (destination) points.push(tuple(destination));
    if (last) points.push(tuple(last));
    return points;
  }, [line, origin, destination, last]);
  const first = all[0] ?? ([0, 0] as LatLngTuple);
  const dots = route.length <= MAX_DOTS ? line : [];

  return (
    <MapContainer
      center={first}
      zoom={all.length > 0 ? 6 : 2}
      scrollWheelZoom={false}
      style={{ height, width: '100%', borderRadius: 8 }}
    >
      <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} />
      <FitToPoints points={all} />
      {line.length > 1 ? (
        <Polyline
          positions={line}
          pathOptions={{ color: MAP_COLOURS.route, weight: 3, opacity: 0.85 }}
        />
      ) : null}
      {dots.map((p, i) => (
        <CircleMarker
          key={`${p[0]},${p[1]},${i}`}
          center={p}
          radius={3}
          pathOptions={{
            color: MAP_COLOURS.route,
            fillColor: '#ffffff',
            fillOpacity: 1,
            weight: 2,
          }}
        />
      ))}
      {origin ? (
        <CircleMarker
          center={tuple(origin)}
          radius={8}
          pathOptions={{
            color: '#ffffff',
            weight: 2,
            fillColor: MAP_COLOURS.origin,
            fillOpacity: 1,
          }}
        >
          <Tooltip>Origin: {origin.name}</Tooltip>
        </CircleMarker>
      ) : null}
      {destination ? (
        <CircleMarker
          center={tuple(destination)}
          radius={8}
          pathOptions={{
            color: '#ffffff',
            weight: 2,
            fillColor: MAP_COLOURS.destination,
            fillOpacity: 1,
          }}
        >
          <Tooltip>Destination: {destination.name}</Tooltip>
        </CircleMarker>
      ) : null}
      {last ? (
        <CircleMarker
          center={tuple(last)}
          radius={10}
          pathOptions={{ color: '#ffffff', weight: 3, fillColor: MAP_COLOURS.last, fillOpacity: 1 }}
        >
          <Tooltip>{lastLabel}</Tooltip>
        </CircleMarker>
      ) : null}
    </MapContainer>
  );
}
