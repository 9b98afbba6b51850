import {
  DISPLAY_RULE_EDIT_PERMISSION,
  type TDataDisplayRuleView,
  type TUser,
} from '@coldtrace/contract';
import Add from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { DataColumn } from '../../../components/data-table';
import { describeHiddenFields } from '../../../lib/display-rule';
import { hasPermission } from '../../../lib/session';
import { displayRulesQueryOptions } from '../../display-rules';
import { ruleAudience, ruleUnitLabel } from '../display-rule-form';
import { ConfigList, ConfigSection, EditButton } from './config-list';
import { DisplayRuleDialog } from './display-rule-dialog';

/** Who sees the tab: the organization's administrators (the calls need sysAdminOrgInfo). */
export function mayManageDisplayRules(user: TUser | null | undefined): boolean {
  return hasPermission(user, DISPLAY_RULE_EDIT_PERMISSION);
}

const COLUMNS: DataColumn<TDataDisplayRuleView>[] = [
  {
    key: 'role',
    header: 'Applies to',
    minWidth: 140,
    render: ruleAudience,
    // Everyone first, then the roles by name.
    sortValue: (row) => (row.role_id === null ? '' : (row.role_name ?? '')),
  },
  { key: 'unit', header: 'Unit', nowrap: true, render: (row) => ruleUnitLabel(row.degrees_unit) },
  {
    key: 'decimals',
    header: 'Decimals',
    numeric: true,
    render: (row) => row.temperature_decimals,
  },
  {
    key: 'hidden',
    header: 'Fields not shown',
    minWidth: 220,
    render: (row) => describeHiddenFields(row.hidden_fields),
  },
];

type Editing = { mode: 'create' } | { mode: 'edit'; rule: TDataDisplayRuleView } | null;

/**
 * The Display rules tab of the Configuration page (docs/decisions/data-display-rules.md):
 * per role, or for everyone, the unit and decimals temperatures are shown with
 * and the record fields not shown; the rules apply on the screens and in reports.
 */
export function DisplayRulesSection({
  user,
  onSaved,
}: {
  user: TUser | null | undefined;
  onSaved: (message: string) => void;
}) {
  const allowed = mayManageDisplayRules(user);
  // The key the session keeps the applied rule under: a save here refreshes both.
  const organizationId = user?.last_session_org_id ?? null;
  const query = useQuery({
    ...displayRulesQueryOptions(organizationId),
    select: (data) => data.rules,
    enabled: allowed,
  });
  const [editing, setEditing] = useState<Editing>(null);

  if (!allowed) {
    return (
      <Alert severity="info">
        Managing display rules needs the organization administration permission; ask one of its
        administrators if you need it.
      </Alert>
    );
  }

  return (
    <ConfigSection
      title="Display rules"
      description="How record data is shown to a role, or to everyone: the temperature unit (instead of each user's own), the decimals of temperatures, and the record fields not shown. The rule of a user's role applies; without one, the rule for everyone. Reports follow the same rule."
      action={
        <Button
          variant="contained"
          startIcon={<Add />}
          onClick={() => setEditing({ mode: 'create' })}
        >
          Add rule
        </Button>
      }
    >
      <ConfigList
        query={query}
        what="the display rules"
        label="Display rules"
        columns={COLUMNS}
        rowKey={(row) => row.id}
        empty="No display rules: everyone sees temperatures in their own unit with one decimal, and every field."
        actions={(row) => (
          <EditButton
            name={`display rule of ${ruleAudience(row)}`}
            onClick={() => setEditing({ mode: 'edit', rule: row })}
          />
        )}
      />
      {editing ? (
        <DisplayRuleDialog
          rule={editing.mode === 'edit' ? editing.rule : undefined}
          rules={query.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            onSaved(`Display rule of ${ruleAudience(saved)} saved`);
          }}
        />
      ) : null}
    </ConfigSection>
  );
}
