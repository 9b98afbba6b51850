import {
  circleMarker,
  latLngBounds,
  layerGroup,
  polyline,
  tileLayer,
  type CircleMarkerOptions,
  type LatLngTuple,
} from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo } from 'react';
import type { MapPoint } from '../display';
import { MAP_COLOURS } from './map-colours';
import { useLeafletMap } from './use-leaflet-map';

/**
 * The record's positions on a Leaflet map (loaded with this chunk only):
 * origin and destination marked, the route as a line, the last position
 * highlighted. Circle markers are vector shapes, so no marker images are
 * needed. The tile server is configurable at build time (VITE_MAP_TILE_URL,
 * VITE_MAP_TILE_ATTRIBUTION); without tiles (offline) the shapes still draw.
 * Callers pass known positions only: the -91 / -181 sentinels never get here.
 *
 * Leaflet is used directly (no React wrapper): `useLeafletMap` makes the map on
 * the div below, and each effect adds its layers and removes them in its cleanup.
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

const DOT_STYLE: CircleMarkerOptions = {
  radius: 3,
  color: MAP_COLOURS.route,
  fillColor: '#ffffff',
  fillOpacity: 1,
  weight: 2,
};
const PLACE_STYLE: CircleMarkerOptions = { radius: 8, color: '#ffffff', weight: 2, fillOpacity: 1 };
const LAST_STYLE: CircleMarkerOptions = {
  radius: 10,
  color: '#ffffff',
  weight: 3,
  fillColor: MAP_COLOURS.last,
  fillOpacity: 1,
};

/**
 * A tooltip's content as text: Leaflet would read a string as HTML, and a
 * location's name is typed by users.
 */
function textContent(text: string): HTMLElement {
  const span = document.createElement('span');
  span.textContent = text;
  return span;
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

  // Where the map starts, before the points are fitted in (read once).
  const [ref, map] = useLeafletMap({
    center: all[0] ?? [0, 0],
    zoom: all.length > 0 ? 6 : 2,
    scrollWheelZoom: false,
  });

  // The tiles, with their attribution in the corner.
  useEffect(() => {
    if (!map) return;
    const tiles = tileLayer(TILE_URL, { attribution: TILE_ATTRIBUTION }).addTo(map);
    return () => void tiles.remove();
  }, [map]);

  // Show every point: a single one at a town's zoom, several fitted in with a margin.
  // The key names the points, so a new array with the same points does not move the map.
  const key = all.map((p) => p.join(',')).join(';');
  useEffect(() => {
    if (!map || all.length === 0) return;
    if (all.length === 1) map.setView(all[0]!, 11);
    else map.fitBounds(latLngBounds(all), { padding: [28, 28], maxZoom: 12 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `all`
  }, [map, key]);

  // The card is shorter on a phone: Leaflet measures its div again when the height changes.
  useEffect(() => {
    map?.invalidateSize();
  }, [map, height]);

  // The route (line, then a dot per sample), then origin, destination and last position
  // on top, each with a tooltip naming it. Drawn again whenever one of them changes.
  useEffect(() => {
    if (!map) return;
    const shapes = layerGroup();
    if (line.length > 1) {
      polyline(line, { color: MAP_COLOURS.route, weight: 3, opacity: 0.85 }).addTo(shapes);
    }
    if (route.length <= MAX_DOTS) {
      for (const p of line) circleMarker(p, DOT_STYLE).addTo(shapes);
    }
    if (origin) {
      circleMarker(tuple(origin), { ...PLACE_STYLE, fillColor: MAP_COLOURS.origin })
        .bindTooltip(textContent(`Origin: ${origin.name}`))
        .addTo(shapes);
    }
    if (destination) {
      circleMarker(tuple(destination), { ...PLACE_STYLE, fillColor: MAP_COLOURS.destination })
        .bindTooltip(textContent(`Destination: ${destination.name}`))
        .addTo(shapes);
    }
    if (last) {
      circleMarker(tuple(last), LAST_STYLE).bindTooltip(textContent(lastLabel)).addTo(shapes);
    }
    shapes.addTo(map);
    return () => void shapes.remove();
  }, [map, route, line, origin, destination, last, lastLabel]);

  return <div ref={ref} style={{ height, width: '100%', borderRadius: 8 }} />;
}
