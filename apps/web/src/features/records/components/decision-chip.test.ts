import { DISPOSITION_DECISIONS } from '@coldtrace/contract';
import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { DECISION_CHIP_COLOURS } from './decision-chip';

describe('decision chip colours [RULE-AUDIT-4, FEAT-REVIEW-QUEUE]', () => {
  it.each(DISPOSITION_DECISIONS)('%s: text on its background passes WCAG AA (4.5:1)', (d) => {
    const { text, background } = DECISION_CHIP_COLOURS[d];
    expect(getContrastRatio(text, background)).toBeGreaterThanOrEqual(4.5);
  });

  it('the icon (the text colour) on a white page and its border set the chip apart (3:1)', () => {
    for (const d of DISPOSITION_DECISIONS) {
      expect(getContrastRatio(DECISION_CHIP_COLOURS[d].border, '#ffffff')).toBeGreaterThanOrEqual(
        3,
      );
    }
  });
});
