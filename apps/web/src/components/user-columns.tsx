import type { TUserSmall } from '@coldtrace/contract';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Chip from '@mui/material/Chip';
import type { DataColumn } from './data-table';

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
    render: (u) => u.email || 'No information on file',
    sortValue: (u) => u.email ?? '',
    minWidth: 180,
  },
  // Locked is said in words and with an icon, not only in colour.
  status: {
    key: 'status',
    header: 'Status',
    nowrap: true,
    sortValue: (u) => (u.is_locked ? 1 : 0),
    render: (u) =>
      u.is_locked ? (
        <Chip size="small" color="error" icon={<LockOutlined />} label="Locked" />
      ) : (
        <Chip size="small" variant="outlined" label="Active" />
      ),
  },
};
