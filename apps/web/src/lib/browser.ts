/** Browser actions kept in one place so components stay testable. */

/** Reloads the whole page (spec section 4: after a units or time zone change). */
export function reloadPage(): void {
  window.location.reload();
}

/** The browser's own time zone, or UTC when the browser does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
