import type { TUserSmall } from '@coldtrace/contract';
import LockOutlined from '@mui/icons-material/LockOutlined';
import PauseCircleOutlined from '@mui/icons-material/PauseCircleOutlined';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { ReactElement } from 'react';
import type { DataColumn } from './data-table';
import { EmailText } from './email-text';
import { userStatusRank, userStatuses, type UserStatus } from './user-status';

// Each status is said in words and with an icon, not only in colour.
const STATUS_CHIPS: Record<UserStatus, { color: 'error' | 'default'; icon: ReactElement } | null> =
  {
    Locked: { color: 'error', icon: <LockOutlined /> },
    Suspended: { color: 'default', icon: <PauseCircleOutlined /> },
    Active: null,
  };

function StatusChip({ status }: { status: UserStatus }) {
  const look = STATUS_CHIPS[status];
  return look ? (
    <Chip size="small" color={look.color} icon={look.icon} label={status} />
  ) : (
    <Chip size="small" variant="outlined" label={status} />
  );
}

/** Columns every user list shares (Manage Users, Server Administration). */
export const userColumns: Record<'username' | 'email' | 'status', DataColumn<TUserSmall>> = {
  username: {
    key: 'username',
    header: 'Username',
    render: (u) => u.username,
    sortValue: (u) => u.username.toLowerCase(),
    minWidth: 140,
  },
  email: {
    key: 'email',
    header: 'E-mail',
    // Long addresses wrap rather than push the row's actions out of sight.
    render: (u) => (u.email ? <EmailText email={u.email} /> : 'No information on file'),
    sortValue: (u) => u.email ?? '',
    minWidth: 160,
    maxWidth: 240,
  },
  // Locked (platform-wide), Suspended (in the session organization), or Active.
  status: {
    key: 'status',
    header: 'Status',
    nowrap: true,
    sortValue: userStatusRank,
    render: (u) => (
      <Stack direction="row" spacing={0.5}>
        {userStatuses(u).map((status) => (
          <StatusChip key={status} status={status} />
        ))}
      </Stack>
    ),
  },
};
