import type { TRecord } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { alarmCells, alarmDisplayer } from './alarm-text';
import { dispositionTexts } from './disposition-text';

/** Issue 37 item 7: the reports (PDF, CSV, XLSX share these words) say how a signature was given. */
describe('signatures with a second factor in the reports [FEAT-SECOND-FACTOR, RULE-REPORT-1]', () => {
  const signature = (secondFactor: 'totp' | 'recovery_code' | null) => ({
    printedName: 'Quality Manager',
    signedAt: new Date('2026-07-01T10:00:00Z'),
    meaning: 'REVIEWED',
    comment: 'Checked',
    secondFactor,
  });
  const display = alarmDisplayer({ unit: 'C', timeZone: 'UTC' });

  it('an acknowledgement and a closing signature name the second factor with the meaning', () => {
    const d = display({
      id: '7',
      acknowledged: true,
      signature: signature('totp'),
      closeSignature: signature('recovery_code'),
    });
    expect(d.signatureMeaning).toBe('Reviewed · with authenticator code');
    expect(d.closeSignatureMeaning).toBe('Reviewed · with recovery code');
    expect(alarmCells(d)).toContain('Reviewed · with authenticator code');
    expect(display({ id: '8', signature: signature(null) }).signatureMeaning).toBe('Reviewed');
  });

  it('a release decision too', () => {
    const record = (second_factor: 'totp' | null): TRecord => ({
      disposition: {
        id: '1',
        decision: 'RELEASED',
        comment: 'In range',
        meaning: 'APPROVED',
        transit_reason: null,
        signed_by: 'Quality Manager',
        signed_at: '2026-07-01T10:00:00.000Z',
        second_factor,
      },
    });
    expect(dispositionTexts(record('totp'), 'UTC')).toContain(
      'Decision signature meaning: Approved · with authenticator code',
    );
    expect(dispositionTexts(record(null), 'UTC')).toContain('Decision signature meaning: Approved');
  });
});
