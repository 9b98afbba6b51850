import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { TUser } from '@coldtrace/contract';
import { Suspense, useId, useState, useTransition } from 'react';
import { lazyPart, loadingButtonSx } from '../../../lib/lazy-part';
import { sessionOrganization } from '../../../lib/session';
import { useSwitchOrganization } from '../../session';

// The menu loads on first use: the top bar only needs the button.
const menu = lazyPart(() => import('./organization-menu').then((m) => m.OrganizationMenu));

/**
 * Top bar organization switcher (spec section 2): shows the session
 * organization; opens a menu only when the user has two or more organizations.
 * The button is busy while the menu is still loading.
 */
export function OrganizationSwitcher({ user }: { user: TUser }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [menuLoaded, setMenuLoaded] = useState(false);
  // A transition: until the code is there, the page stays as it is (no fallback flashes).
  const [loading, startLoading] = useTransition();
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
        aria-busy={switchOrganization.isPending || loading}
        onPointerEnter={canSwitch ? menu.preload : undefined}
        onFocus={canSwitch ? menu.preload : undefined}
        onClick={
          canSwitch
            ? (event) => {
                const target = event.currentTarget;
                startLoading(() => {
                  setMenuLoaded(true);
                  setAnchor(target);
                });
              }
            : undefined
        }
        startIcon={<BusinessOutlined />}
        endIcon={canSwitch ? <ArrowDropDown /> : undefined}
        sx={{
          minWidth: 0,
          px: { xs: 1, sm: 1.5 },
          fontWeight: 600,
          cursor: canSwitch ? 'pointer' : 'default',
          ...(loading ? loadingButtonSx : undefined),
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
      <Suspense fallback={null}>
        {canSwitch && menuLoaded ? (
          <menu.Component
            id={menuId}
            anchor={anchor}
            organizations={organizations}
            currentId={current?.id}
            onClose={() => setAnchor(null)}
            onChoose={choose}
          />
        ) : null}
      </Suspense>
    </>
  );
}
