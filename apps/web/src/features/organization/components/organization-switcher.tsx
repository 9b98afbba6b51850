import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import Check from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { TUser } from '@coldtrace/contract';
import { useId, useState } from 'react';
import { sessionOrganization } from '../../../lib/session';
import { useSwitchOrganization } from '../../session';

/**
 * Top bar organization switcher (spec section 2): shows the session
 * organization; opens a menu only when the user has two or more organizations.
 */
export function OrganizationSwitcher({ user }: { user: TUser }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const switchOrganization = useSwitchOrganization();
  const organizations = user.organizations ?? [];
  const current = sessionOrganization(user);
  const name = current?.name ?? 'No organization';
  const canSwitch = organizations.length >= 2;
  const open = anchor !== null;

  const choose = (organizationId: string) => {
    setAnchor(null);
    if (organizationId === current?.id) return;
    switchOrganization.mutate(organizationId);
  };

  return (
    <>
      <Button
        color="inherit"
        aria-label={`Organization: ${name}`}
        aria-haspopup={canSwitch ? 'menu' : undefined}
        aria-controls={canSwitch && open ? menuId : undefined}
        aria-expanded={canSwitch ? open : undefined}
        aria-busy={switchOrganization.isPending}
        onClick={canSwitch ? (event) => setAnchor(event.currentTarget) : undefined}
        startIcon={<BusinessOutlined />}
        endIcon={canSwitch ? <ArrowDropDown /> : undefined}
        sx={{
          minWidth: 0,
          px: { xs: 1, sm: 1.5 },
          fontWeight: 600,
          cursor: canSwitch ? 'pointer' : 'default',
          '& .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } },
          '& .MuiButton-endIcon': { ml: 0.25 },
        }}
      >
        <Box
          component="span"
          sx={{
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
            maxWidth: { xs: 132, sm: 240, md: 320 },
          }}
        >
          {name}
        </Box>
      </Button>
      {canSwitch ? (
        <Menu
          id={menuId}
          anchorEl={anchor}
          open={open}
          onClose={() => setAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          {organizations.map((organization) => {
            const selected = organization.id === current?.id;
            return (
              <MenuItem
                key={organization.id}
                selected={selected}
                onClick={() => choose(organization.id)}
              >
                <ListItemIcon>{selected ? <Check fontSize="small" /> : null}</ListItemIcon>
                <ListItemText>{organization.name}</ListItemText>
              </MenuItem>
            );
          })}
        </Menu>
      ) : null}
    </>
  );
}
