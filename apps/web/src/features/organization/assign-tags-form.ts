/**
 * The Assign Tags page's rules (spec sections 2, 4, 5 and 8), pure so they
 * are tested without a browser.
 */

export const ASSIGN_SUCCESS_MESSAGE = 'All tags IDs successfully created and/or assigned';
export const ASSIGN_FAILURE_MESSAGE =
  'The following tag IDs could not be created or assigned. Please check the formatting and value of your entries';

/** "Split on commas and whitespace, and empty entries are dropped." */
export function splitTagInput(text: string): string[] {
  return text.split(/[\s,]+/).filter((entry) => entry !== '');
}

/** "Assign Tags to {organisation name}", or "Choose an Organization" when none is chosen. */
export function assignButtonLabel(organizationName: string | undefined): string {
  return organizationName ? `Assign Tags to ${organizationName}` : 'Choose an Organization';
}

/** The button is disabled while working, when the box is empty, or when no organization is chosen. */
export function assignDisabled(state: {
  pending: boolean;
  text: string;
  organizationId: string;
}): boolean {
  return state.pending || splitTagInput(state.text).length === 0 || state.organizationId === '';
}

/** The failed IDs back in the box, one per line. */
export function failedIdsText(failedIds: readonly string[]): string {
  return failedIds.join('\n');
}
