/** Business constants of spec section 9. */
export const REQUEST_TIMEOUT_MS = 60_000;
export const LOGIN_REDIRECT_THROTTLE_MS = 300;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const UNKNOWN_LATITUDE = -91;
export const UNKNOWN_LONGITUDE = -181;
export const DEFAULT_NUM_CONSECUTIVE_EXCURSIONS = 1;
export const DEFAULT_TEMPERATURES_OFFSET_INDEX = 0;
export const DEFAULT_DEGREES_UNIT = 'C' as const;
export const DEFAULT_TIMEZONE = 'UTC';
export const WEB_CLIENT_TYPE = 'WEB' as const;
export const MOBILE_APP_VERSION_MAX_LENGTH = 120;
export const AUTOCOMPLETE_PAGE_SIZE = 5;
export const SEARCH_PAGE_SIZE = 5;
export const HOME_LIST_PAGE_SIZE = 20;
export const HOME_LIST_ORDER_BY = '-last_action_taken';
export const NOTIFICATIONS_PAGE_SIZE = 100;
export const NOTIFICATION_BADGE_MAX = 99;
export const TOTAL_COUNT_HEADER = 'x-total-count';
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'X-CSRFToken';
export const SESSION_COOKIE = 'sessionid';
/** Layout constants (spec section 9). */
export const BREAKPOINTS = {
  xs: 0,
  sm: 600,
  ms: 768,
  md: 900,
  ml: 1024,
  lg: 1200,
  xl: 1536,
} as const;
export const TOOLBAR_MIN_HEIGHT = 67;
export const FOOTER_HEIGHT = 45;
export const SIDE_NAV_WIDTH = 102;
export const DESKTOP_BREAKPOINT = 768;
export const CHANGELOG_MAX_HEIGHT = 350;
/** First path segments the session guard lets through (spec section 2). */
export const PUBLIC_FIRST_SEGMENTS = [
  'login',
  'forgotpassword',
  'forgotpasswordconfirm',
  'passwordreset',
  'passwordresetconfirm',
  'welcome',
] as const;
