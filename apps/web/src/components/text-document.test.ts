import { describe, expect, it } from 'vitest';
import { parseTextBlocks, slugify } from './text-document';

describe('parseTextBlocks [SPEC-2.2]', () => {
  it('reads headings, lists and paragraphs', () => {
    const blocks = parseTextBlocks(
      '# Changelog\n\nIntro line one\nline two\n\n## Unreleased\n- first\n  continued\n* second\n\nEnd.',
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Changelog', id: 'changelog' },
      { kind: 'paragraph', text: 'Intro line one\nline two' },
      { kind: 'heading', level: 2, text: 'Unreleased', id: 'unreleased' },
      { kind: 'list', items: ['first continued', 'second'] },
      { kind: 'paragraph', text: 'End.' },
    ]);
  });

  it('treats plain text as paragraphs separated by blank lines', () => {
    expect(parseTextBlocks('One.\r\n\r\nTwo.')).toEqual([
      { kind: 'paragraph', text: 'One.' },
      { kind: 'paragraph', text: 'Two.' },
    ]);
  });

  it('slugifies headings', () => {
    expect(slugify('7. Warranty & Liability')).toBe('7-warranty-liability');
  });
});
