import type { TReportKind } from '@coldtrace/contract';
import { formatDate, formatDateTime } from '@coldtrace/domain';
import DescriptionRounded from '@mui/icons-material/DescriptionRounded';
import GridOnRounded from '@mui/icons-material/GridOnRounded';
import PictureAsPdfRounded from '@mui/icons-material/PictureAsPdfRounded';
import VerifiedUserRounded from '@mui/icons-material/VerifiedUserRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import { ValueLoading } from '../../../components/page-loading';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../components/error-handler';
import { LoadError } from '../../../components/load-error';
import { CalibrationChip } from '../../../components/calibration-chip';
import { useCalibrations } from '../api/get-calibrations';
import { useRecord } from '../api/get-record';
import { useDownloadReport } from '../api/generate-report';
import { SectionCard } from './section-card';

const KINDS: { kind: Exclude<TReportKind, 'dossier'>; label: string; icon: ReactNode }[] = [
  { kind: 'pdf', label: 'PDF', icon: <PictureAsPdfRounded /> },
  { kind: 'csv', label: 'CSV', icon: <DescriptionRounded /> },
  { kind: 'xlsx', label: 'XLSX', icon: <GridOnRounded /> },
];

/** What the status line and the error call each download. */
const NAMES: Record<TReportKind, string> = {
  pdf: 'PDF report',
  csv: 'CSV report',
  xlsx: 'XLSX report',
  dossier: 'signed dossier',
};

/**
 * Reports of the record (PDF, CSV, XLSX, in the user's unit and time zone),
 * its signed evidence dossier (a zip that verifies offline, docs/dossier.md)
 * and the calibration certificate of its tag. A download shows a spinner on
 * its button until the file is saved, and an error message when it fails.
 */
export function ReportsCard({
  recordId,
  tagId,
  tagSerialNumber,
  timeZone,
}: {
  recordId: string;
  tagId: number | null;
  tagSerialNumber: string | undefined;
  timeZone: string;
}) {
  const download = useDownloadReport();
  const running = download.isPending ? download.variables?.kind : undefined;
  const failedKind = download.isError ? download.variables?.kind : undefined;

  return (
    <SectionCard title="Reports" subtitle="Download in your temperature unit and time zone">
      {/* Three equal buttons in one row, in the narrow right column and on phones alike. */}
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 1 }}>
        {KINDS.map(({ kind, label, icon }) => (
          <Button
            key={kind}
            variant="outlined"
            startIcon={icon}
            loading={running === kind}
            loadingPosition="start"
            disabled={download.isPending && running !== kind}
            onClick={() => download.mutate({ kind, recordId })}
            aria-label={`Download ${label}`}
          >
            {label}
          </Button>
        ))}
      </Box>
      <Button
        fullWidth
        variant="outlined"
        startIcon={<VerifiedUserRounded />}
        sx={{ mt: 1 }}
        loading={running === 'dossier'}
        loadingPosition="start"
        disabled={download.isPending && running !== 'dossier'}
        onClick={() => download.mutate({ kind: 'dossier', recordId })}
        aria-describedby="dossier-help"
      >
        Signed dossier (ZIP)
      </Button>
      <Typography id="dossier-help" variant="caption" color="text.secondary" component="p">
        Series, alarms, signatures, decisions and trail with the PDF, signed by your organization:
        anyone can check it without Coldtrace.
      </Typography>
      <Typography
        variant="body2"
        color="text.secondary"
        role="status"
        sx={{ mt: 0.5, minHeight: 20 }}
      >
        {running
          ? `Generating the ${NAMES[running]}…`
          : download.isSuccess
            ? `Saved ${download.data}`
            : ''}
      </Typography>
      {failedKind ? (
        <Alert severity="error" variant="outlined" onClose={() => download.reset()}>
          Could not download the {NAMES[failedKind]}: {errorMessage(download.error)}
        </Alert>
      ) : null}
      <Divider sx={{ mt: 1, mb: 2 }} />
      <CalibrationCertificate
        recordId={recordId}
        tagId={tagId}
        tagSerialNumber={tagSerialNumber}
        timeZone={timeZone}
      />
    </SectionCard>
  );
}

function CalibrationCertificate({
  recordId,
  tagId,
  tagSerialNumber,
  timeZone,
}: {
  recordId: string;
  tagId: number | null;
  tagSerialNumber: string | undefined;
  timeZone: string;
}) {
  const certificates = useCalibrations(tagId);
  // The record is in the cache already (the page loaded it): its calibration at the start.
  const record = useRecord(recordId).data;
  const tag = tagSerialNumber ?? 'this tag';
  let body: ReactNode;
  if (tagId === null) {
    body = <Typography variant="body2">The record names no tag.</Typography>;
  } else if (certificates.isError) {
    body = (
      <LoadError
        what="the calibration certificates"
        error={certificates.error}
        onRetry={() => void certificates.refetch()}
        retrying={certificates.isFetching}
      />
    );
  } else if (certificates.isPending) {
    body = (
      <ValueLoading variant="text" width="80%" aria-label="Loading the calibration certificates" />
    );
  } else if (certificates.data.length === 0) {
    body = (
      <Typography variant="body2" color="text.secondary">
        No calibration certificate for tag {tag}.
      </Typography>
    );
  } else {
    const latest = certificates.data[0]!;
    const older = certificates.data.length - 1;
    body = (
      <Stack spacing={0.5}>
        <Typography variant="body2">
          {latest.model_name}, calibrated{' '}
          {latest.calibration_timestamp
            ? formatDateTime(latest.calibration_timestamp, timeZone)
            : 'at an unknown time'}
        </Typography>
        <Link href={latest.pdf_url} download variant="body2">
          Download the certificate of tag {tag} (PDF)
        </Link>
        <Typography variant="body2">
          Next calibration due {formatDate(latest.calibration_due, timeZone)}
        </Typography>
        {older > 0 ? (
          <Typography variant="caption" color="text.secondary">
            {older} earlier certificate{older > 1 ? 's' : ''} on file
          </Typography>
        ) : null}
      </Stack>
    );
  }
  return (
    <div>
      <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 600, mb: 0.5 }}>
        Calibration certificate
      </Typography>
      {record && tagId !== null ? (
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}
          data-testid="calibration-at-start"
        >
          <Typography variant="body2" color="text.secondary">
            At the shipment's start:
          </Typography>
          <CalibrationChip
            state={record.calibration_state}
            due={record.calibration_due}
            timeZone={timeZone}
          />
        </Stack>
      ) : null}
      {record?.calibration_warning ? (
        <Alert severity="warning" variant="outlined" sx={{ mb: 1 }} role="note">
          {record.calibration_due
            ? `This shipment was started on tag ${tag} although its calibration had expired on ${formatDateTime(record.calibration_due, timeZone)}.`
            : `This shipment was started on an expired calibration: ${record.calibration_warning}.`}
        </Alert>
      ) : null}
      {body}
    </div>
  );
}
