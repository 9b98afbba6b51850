import Divider from '@mui/material/Divider';

/**
 * A divider between groups of options in a MUI Select. The Select clones its
 * children as options (role, click handler, value); this component ignores
 * those props, so the line stays a separator that cannot be chosen.
 */
export function MenuDivider(_props: Record<string, unknown>) {
  return <Divider component="li" role="separator" sx={{ my: 0.5 }} />;
}
