import Check from '@mui/icons-material/Check';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { TUser } from '@coldtrace/contract';

/** The organization switcher's menu (loaded on first use by `OrganizationSwitcher`). */
export function OrganizationMenu({
  id,
  anchor,
  organizations,
  currentId,
  onClose,
  onChoose,
}: {
  id: string;
  anchor: HTMLElement | null;
  organizations: NonNullable<TUser['organizations']>;
  currentId: string | undefined;
  onClose: () => void;
  onChoose: (organizationId: string) => void;
}) {
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      {organizations.map((organization) => {
        const selected = organization.id === currentId;
        return (
          <MenuItem
            key={organization.id}
            selected={selected}
            onClick={() => onChoose(organization.id)}
          >
            <ListItemIcon>{selected ? <Check fontSize="small" /> : null}</ListItemIcon>
            <ListItemText>{organization.name}</ListItemText>
          </MenuItem>
        );
      })}
    </Menu>
  );
}
