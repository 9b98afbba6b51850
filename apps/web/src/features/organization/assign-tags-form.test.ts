import { describe, expect, it } from 'vitest';
import {
  assignButtonLabel,
  assignDisabled,
  failedIdsText,
  splitTagInput,
} from './assign-tags-form';

describe('Assign Tags rules [SPEC-2.8, SPEC-5.4, SPEC-4]', () => {
  it('splits on commas, spaces and line breaks and drops empty entries', () => {
    expect(splitTagInput('A-1, B-2,,C-3\n\nD-4\tE-5  ,  ')).toEqual([
      'A-1',
      'B-2',
      'C-3',
      'D-4',
      'E-5',
    ]);
    expect(splitTagInput(' ,\n ')).toEqual([]);
  });

  it('labels the button with the organization, or asks to choose one', () => {
    expect(assignButtonLabel('Acme Pharma')).toBe('Assign Tags to Acme Pharma');
    expect(assignButtonLabel(undefined)).toBe('Choose an Organization');
  });

  it('disables the button while working, with an empty box or without an organization', () => {
    const ready = { pending: false, text: 'A-1', organizationId: 'org' };
    expect(assignDisabled(ready)).toBe(false);
    expect(assignDisabled({ ...ready, pending: true })).toBe(true);
    expect(assignDisabled({ ...ready, text: ' , ' })).toBe(true);
    expect(assignDisabled({ ...ready, organizationId: '' })).toBe(true);
  });

  it('puts the failed IDs back one per line', () => {
    expect(failedIdsText(['bad!', '###'])).toBe('bad!\n###');
  });
});
