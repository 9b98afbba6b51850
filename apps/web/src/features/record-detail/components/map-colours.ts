/** Colours of the map's marks, shared by the map (Leaflet chunk) and its key (page chunk). */
export const MAP_COLOURS = {
  origin: '#2e7d32',
  destination: '#0b3d6e',
  route: '#0277a8',
  last: '#e65100',
} as const;
