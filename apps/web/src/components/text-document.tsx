import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Fragment, type ReactNode } from 'react';

/**
 * Renders a plain or lightly marked-up text (terms of use, privacy policy,
 * changelog): `#` headings, `-` / `*` bullet lists, paragraphs separated by
 * blank lines, inline `code` and **bold**. Nothing is interpreted as HTML.
 */

export type TextBlock =
  | { kind: 'heading'; level: number; text: string; id: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'paragraph'; text: string };

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function parseTextBlocks(source: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let paragraph: string[] = [];
  let list: string[] | null = null;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join('\n') });
    paragraph = [];
    if (list) blocks.push({ kind: 'list', items: list });
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
    if (line.trim() === '') {
      flush();
    } else if (heading) {
      flush();
      const text = heading[2]!.trim();
      blocks.push({ kind: 'heading', level: heading[1]!.length, text, id: slugify(text) });
    } else if (bullet) {
      if (paragraph.length > 0) flush();
      list ??= [];
      list.push(bullet[1]!);
    } else if (list && /^\s+/.test(raw)) {
      // An indented line continues the last bullet.
      list[list.length - 1] += ` ${line.trim()}`;
    } else {
      if (list) flush();
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g).map((part, index) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) {
      return (
        <Box
          component="code"
          key={index}
          sx={{
            fontFamily: 'monospace',
            fontSize: '0.9em',
            bgcolor: 'action.hover',
            px: 0.5,
            borderRadius: 0.5,
          }}
        >
          {part.slice(1, -1)}
        </Box>
      );
    }
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3) {
      return <strong key={index}>{part.slice(2, -2)}</strong>;
    }
    return <Fragment key={index}>{part}</Fragment>;
  });
}

const HEADING_VARIANTS = ['h2', 'h3', 'h5', 'h6', 'h6', 'h6'] as const;

/**
 * The text as blocks. Headings start one level below the page's h1. `anchors`
 * adds ids to blocks: each heading gets its slug, and any extra anchor (e.g.
 * `warranty`) that is no heading's slug goes to the first heading mentioning
 * it ("7. Warranty"), else to the first block mentioning it.
 */
export function TextDocument({ source, anchors = [] }: { source: string; anchors?: string[] }) {
  const blocks = parseTextBlocks(source);
  const extraIds = new Map<number, string>();
  for (const anchor of anchors) {
    if (blocks.some((block) => block.kind === 'heading' && block.id === anchor)) continue;
    const mentions = (block: TextBlock) =>
      (block.kind === 'list' ? block.items.join(' ') : block.text).toLowerCase().includes(anchor);
    // A heading naming it ("7. Warranty") first, else the first block mentioning it.
    const headingIndex = blocks.findIndex((block) => block.kind === 'heading' && mentions(block));
    const index = headingIndex >= 0 ? headingIndex : blocks.findIndex(mentions);
    if (index >= 0 && !extraIds.has(index)) extraIds.set(index, anchor);
  }
  return (
    <Box sx={{ '& [id]': { scrollMarginTop: 88 }, overflowWrap: 'anywhere' }}>
      {blocks.map((block, index) => {
        const id =
          extraIds.get(index) ?? (block.kind === 'heading' ? block.id || undefined : undefined);
        if (block.kind === 'heading') {
          const level = Math.min(block.level + 1, 6);
          return (
            <Typography
              key={index}
              id={id}
              component={`h${level}` as 'h2'}
              variant={HEADING_VARIANTS[block.level - 1]}
              sx={{ mt: index === 0 ? 0 : 2.5, mb: 1 }}
            >
              {inline(block.text)}
            </Typography>
          );
        }
        if (block.kind === 'list') {
          return (
            <Box key={index} id={id} component="ul" sx={{ mt: 0, mb: 1.5, pl: 3 }}>
              {block.items.map((item, itemIndex) => (
                <Typography key={itemIndex} component="li" variant="body2" sx={{ mb: 0.5 }}>
                  {inline(item)}
                </Typography>
              ))}
            </Box>
          );
        }
        return (
          <Typography
            key={index}
            id={id}
            variant="body2"
            sx={{ mb: 1.5, whiteSpace: 'pre-line', lineHeight: 1.65 }}
          >
            {inline(block.text)}
          </Typography>
        );
      })}
    </Box>
  );
}
