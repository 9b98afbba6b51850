/**
 * The demo configuration the simulator and the first-start demo data use:
 * real places of the pharmaceutical cold chain (manufacturing sites and air
 * cargo hubs, with their coordinates and time zones), the lanes shipments
 * travel between them, carriers and products with their temperature limits.
 * Created through the configuration calls (simulator) or the configuration
 * tables (seed) when missing, matched by name.
 */

export type PlaceKey =
  | 'basel'
  | 'puurs'
  | 'cork'
  | 'indianapolis'
  | 'frankfurt'
  | 'brussels'
  | 'amsterdam'
  | 'memphis'
  | 'louisville'
  | 'singapore'
  | 'mumbai';

export interface Place {
  key: PlaceKey;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  timezone: string;
  origin: boolean;
  destination: boolean;
}

export const PLACES: readonly Place[] = [
  {
    key: 'basel',
    name: 'Basel Manufacturing Site',
    address: 'Grenzacherstrasse, 4058 Basel, Switzerland',
    latitude: 47.5596,
    longitude: 7.5886,
    timezone: 'Europe/Zurich',
    origin: true,
    destination: false,
  },
  {
    key: 'puurs',
    name: 'Puurs Fill & Finish Plant',
    address: 'Rijksweg, 2870 Puurs-Sint-Amands, Belgium',
    latitude: 51.0756,
    longitude: 4.2889,
    timezone: 'Europe/Brussels',
    origin: true,
    destination: false,
  },
  {
    key: 'cork',
    name: 'Cork Harbour Pharma Site',
    address: 'Ringaskiddy, Co. Cork, P43 Ireland',
    latitude: 51.829,
    longitude: -8.321,
    timezone: 'Europe/Dublin',
    origin: true,
    destination: false,
  },
  {
    key: 'indianapolis',
    name: 'Indianapolis Distribution Center',
    address: 'South Harding Street, Indianapolis, IN 46225, USA',
    latitude: 39.7684,
    longitude: -86.1581,
    timezone: 'America/Indianapolis',
    origin: true,
    destination: false,
  },
  {
    key: 'frankfurt',
    name: 'Frankfurt Airport Cargo City South',
    address: 'Cargo City Süd, 60549 Frankfurt am Main, Germany',
    latitude: 50.0365,
    longitude: 8.552,
    timezone: 'Europe/Berlin',
    origin: true,
    destination: true,
  },
  {
    key: 'brussels',
    name: 'Brussels Airport BRUcargo',
    address: 'BRUcargo, 1931 Zaventem, Belgium',
    latitude: 50.9014,
    longitude: 4.4844,
    timezone: 'Europe/Brussels',
    origin: true,
    destination: true,
  },
  {
    key: 'amsterdam',
    name: 'Amsterdam Schiphol Cargo',
    address: 'Pelikaanweg, 1118 Schiphol, Netherlands',
    latitude: 52.3105,
    longitude: 4.7683,
    timezone: 'Europe/Amsterdam',
    origin: true,
    destination: true,
  },
  {
    key: 'memphis',
    name: 'Memphis Air Hub',
    address: 'Memphis International Airport, Memphis, TN 38116, USA',
    latitude: 35.0424,
    longitude: -89.9767,
    timezone: 'America/Chicago',
    origin: true,
    destination: true,
  },
  {
    key: 'louisville',
    name: 'Louisville Air Hub',
    address: 'Louisville International Airport, Louisville, KY 40209, USA',
    latitude: 38.1744,
    longitude: -85.736,
    timezone: 'America/Louisville',
    origin: false,
    destination: true,
  },
  {
    key: 'singapore',
    name: 'Singapore Changi Airfreight Centre',
    address: 'Airline Road, Singapore 819834',
    latitude: 1.3644,
    longitude: 103.9915,
    timezone: 'Asia/Singapore',
    origin: true,
    destination: true,
  },
  {
    key: 'mumbai',
    name: 'Mumbai Air Cargo Complex',
    address: 'Sahar, Andheri East, Mumbai 400099, India',
    latitude: 19.0896,
    longitude: 72.8656,
    timezone: 'Asia/Calcutta',
    origin: false,
    destination: true,
  },
];

export function placeOf(key: PlaceKey): Place {
  const place = PLACES.find((p) => p.key === key);
  if (!place) throw new RangeError(`unknown place ${key}`);
  return place;
}

export type TransportMode = 'road' | 'air';

/** The lanes shipments travel (origin has `origin`, destination has `destination`). */
export interface Lane {
  from: PlaceKey;
  to: PlaceKey;
  mode: TransportMode;
}

export const LANES: readonly Lane[] = [
  { from: 'basel', to: 'frankfurt', mode: 'road' },
  { from: 'basel', to: 'singapore', mode: 'air' },
  { from: 'basel', to: 'memphis', mode: 'air' },
  { from: 'puurs', to: 'amsterdam', mode: 'road' },
  { from: 'puurs', to: 'memphis', mode: 'air' },
  { from: 'brussels', to: 'mumbai', mode: 'air' },
  { from: 'cork', to: 'amsterdam', mode: 'air' },
  { from: 'amsterdam', to: 'frankfurt', mode: 'road' },
  { from: 'frankfurt', to: 'memphis', mode: 'air' },
  { from: 'frankfurt', to: 'singapore', mode: 'air' },
  { from: 'memphis', to: 'louisville', mode: 'road' },
  { from: 'indianapolis', to: 'louisville', mode: 'road' },
  { from: 'indianapolis', to: 'memphis', mode: 'road' },
  { from: 'singapore', to: 'mumbai', mode: 'air' },
];

export const CARRIERS: Readonly<Record<TransportMode, readonly string[]>> = {
  air: ['Lufthansa Cargo', 'FedEx Express', 'Singapore Airlines Cargo'],
  road: ['DHL Medical Express', 'Kuehne+Nagel', 'UPS Healthcare'],
};

export const ALL_CARRIERS: readonly string[] = [...CARRIERS.air, ...CARRIERS.road];

/** Which temperature regime a product ships in. */
export type ProductClass = 'refrigerated' | 'frozen' | 'controlled-room';

export interface ProductSpec {
  name: string;
  productClass: ProductClass;
  high: number;
  low: number;
  numConsecutive: number;
  cumulativeHigh?: number;
  cumulativeDurationHigh?: string;
  cumulativeLow?: number;
  cumulativeDurationLow?: string;
  /** Stability budget bands (issue 14 item 3): minutes allowed beyond a limit across legs. */
  stabilityBudget?: { direction: 'ABOVE' | 'BELOW'; limit: number; allowed_minutes: number }[];
}

export const PRODUCTS: readonly ProductSpec[] = [
  {
    name: 'Influenza Vaccine (2-8 °C)',
    productClass: 'refrigerated',
    high: 8,
    low: 2,
    numConsecutive: 3,
    // A typical vaccine stability statement: 12 h above 8 °C, 1 h above 25 °C, no freezing.
    stabilityBudget: [
      { direction: 'ABOVE', limit: 8, allowed_minutes: 720 },
      { direction: 'ABOVE', limit: 25, allowed_minutes: 60 },
      { direction: 'BELOW', limit: 0, allowed_minutes: 0 },
    ],
  },
  {
    name: 'Insulin Pens (2-8 °C)',
    productClass: 'refrigerated',
    high: 8,
    low: 2,
    numConsecutive: 2,
    cumulativeHigh: 8,
    cumulativeDurationHigh: '00:45:00',
    cumulativeLow: 2,
    cumulativeDurationLow: '00:30:00',
  },
  {
    name: 'Monoclonal Antibody (2-8 °C)',
    productClass: 'refrigerated',
    high: 8,
    low: 2,
    numConsecutive: 1,
    stabilityBudget: [
      { direction: 'ABOVE', limit: 8, allowed_minutes: 240 },
      { direction: 'BELOW', limit: 2, allowed_minutes: 120 },
    ],
  },
  {
    name: 'Frozen Biologic (-20 °C)',
    productClass: 'frozen',
    high: -15,
    low: -30,
    numConsecutive: 2,
  },
  {
    name: 'Oral Tablets (CRT 15-25 °C)',
    productClass: 'controlled-room',
    high: 25,
    low: 15,
    numConsecutive: 4,
  },
];

/**
 * The geo-fence the demo organization gets (the body of PATCH
 * /api/auth/org-settings/): depart beyond 2 km of the origin, arrive within
 * 5 km of the destination, two samples each. The simulator leaves an
 * organization's own geo-fence alone.
 */
export const DEMO_GEO_FENCE = {
  arrival_radius: 5,
  arrival_radius_units: 'km',
  departure_radius: 2,
  departure_radius_units: 'km',
  num_points_to_arrive: 2,
  num_points_to_depart: 2,
} as const;

/** The travel location create body of a demo place (the API's and the first-start seed's). */
export function travelLocationBody(place: Place) {
  return {
    name: place.name,
    address: place.address,
    latitude: place.latitude,
    longitude: place.longitude,
    origin: place.origin,
    destination: place.destination,
    timezone: place.timezone,
  };
}

/** The product definition create body of a demo product. */
export function productDefinitionBody(p: ProductSpec) {
  return {
    product_name: p.name,
    high_threshold: p.high,
    low_threshold: p.low,
    num_consecutive_excursions: p.numConsecutive,
    cumulative_high_threshold: p.cumulativeHigh ?? null,
    cumulative_duration_high: p.cumulativeDurationHigh ?? null,
    cumulative_low_threshold: p.cumulativeLow ?? null,
    cumulative_duration_low: p.cumulativeDurationLow ?? null,
    stability_budget: p.stabilityBudget ?? null,
  };
}
