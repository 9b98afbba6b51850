import Box from '@mui/material/Box';

/** The id of the layout's `<main>`, where the skip link sends the focus. */
export const MAIN_ID = 'main-content';

/**
 * "Skip to main content": the first focusable element of every page, hidden
 * until it has keyboard focus (WCAG 2.4.1). Moves the focus to `<main>`
 * without touching the URL, so the router and `#` anchors are left alone.
 */
export function SkipLink() {
  return (
    <Box
      component="a"
      href={`#${MAIN_ID}`}
      onClick={(event: React.MouseEvent<HTMLAnchorElement>) => {
        const main = document.getElementById(MAIN_ID);
        if (!main) return;
        event.preventDefault();
        main.focus();
        main.scrollIntoView();
      }}
      sx={(theme) => ({
        position: 'fixed',
        left: 8,
        top: 8,
        zIndex: theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'primary.main',
        fontWeight: 600,
        boxShadow: 3,
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      })}
    >
      Skip to main content
    </Box>
  );
}
