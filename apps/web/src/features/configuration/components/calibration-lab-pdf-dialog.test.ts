import { MAX_CALIBRATION_FILE_BYTES } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { fileSize, labPdfProblem, uploadName } from './calibration-lab-pdf-dialog';

describe('the lab PDF chosen for a certificate [FEAT-CALIBRATION]', () => {
  it('takes a PDF up to the limit, and says what is wrong with anything else', () => {
    const pdf = { name: 'lab.pdf', type: 'application/pdf', size: 2048 };
    expect(labPdfProblem(pdf)).toBeNull();
    expect(labPdfProblem({ ...pdf, type: '' })).toBeNull();
    expect(labPdfProblem({ ...pdf, size: MAX_CALIBRATION_FILE_BYTES })).toBeNull();
    expect(labPdfProblem({ name: 'photo.jpg', type: 'image/jpeg', size: 10 })).toMatch(/PDF/);
    expect(labPdfProblem({ ...pdf, size: 0 })).toBe('The file is empty');
    expect(labPdfProblem({ ...pdf, size: MAX_CALIBRATION_FILE_BYTES + 1 })).toBe(
      'The file is 10.0 MB: at most 10 MB',
    );
  });

  it('shortens a long name to what the server keeps, .pdf kept; sizes read in kB and MB', () => {
    const long = `${'a'.repeat(300)}.pdf`;
    expect(uploadName(long)).toHaveLength(200);
    expect(uploadName(long).endsWith('.pdf')).toBe(true);
    expect(uploadName('lab.pdf')).toBe('lab.pdf');
    expect(fileSize(100)).toBe('1 kB');
    expect(fileSize(1536 * 1024)).toBe('1.5 MB');
  });
});
