/**
 * Small readers for assertions without jest-dom: what a screen reader hears
 * as an element's description (its help or error text) and whether it is invalid.
 */

/** The text of the elements `aria-describedby` names (a field's helper or error text). */
export function descriptionOf(element: Element): string {
  const ids = element.getAttribute('aria-describedby')?.split(/\s+/) ?? [];
  return ids
    .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim();
}

/** Whether the field says it is at fault. */
export function isInvalid(element: Element): boolean {
  return element.getAttribute('aria-invalid') === 'true';
}

/** Whether a button or input is disabled. */
export function isDisabled(element: Element): boolean {
  return (element as HTMLButtonElement).disabled === true;
}
