import { map as createMap, type Map as LeafletMap, type MapOptions } from 'leaflet';
import { useCallback, useRef, useState } from 'react';

/**
 * A Leaflet map on a `<div>` React renders: pass the returned ref to the div, and
 * draw on the returned map (null until the div is in the page) in effects.
 *
 * ```tsx
 * const [ref, map] = useLeafletMap({ center: [52, 4], zoom: 6 });
 * useEffect(() => {
 *   if (!map) return;
 *   const layer = tileLayer(url).addTo(map);
 *   return () => void layer.remove();
 * }, [map]);
 * return <div ref={ref} style={{ height: 300 }} />;
 * ```
 *
 * The options are read once, when the map is made (like Leaflet's own). The map is
 * removed (its listeners, layers and DOM) when the div leaves the page: React 19
 * runs the cleanup a ref callback returns.
 */
export function useLeafletMap(
  options: MapOptions,
): [ref: (node: HTMLDivElement | null) => (() => void) | undefined, map: LeafletMap | null] {
  const [map, setMap] = useState<LeafletMap | null>(null);
  const optionsRef = useRef(options);
  const ref = useCallback((node: HTMLDivElement | null) => {
    if (!node) return undefined;
    const created = createMap(node, optionsRef.current);
    setMap(created);
    return () => {
      created.remove();
      setMap(null);
    };
  }, []);
  return [ref, map];
}
