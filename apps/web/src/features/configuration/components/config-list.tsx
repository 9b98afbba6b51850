import EditOutlined from '@mui/icons-material/EditOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

/**
 * One configuration list in its card (`SectionCard`): a heading with what the
 * list is for and its Add button, then skeleton rows while loading, what
 * failed with a retry, an empty state saying what to do next, or the table
 * (`components/section-list.tsx`, shared with Manage Users).
 */
export { SectionCard as ConfigSection } from '../../../components/section-card';
export {
  SectionLoadError as CardLoadError,
  SectionList as ConfigList,
} from '../../../components/section-list';

/** The Edit icon button of a row: "Edit {name}". */
export function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Tooltip title="Edit">
      <IconButton size="small" aria-label={`Edit ${name}`} onClick={onClick}>
        <EditOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
