import type { TCalibrationSummary } from '@coldtrace/contract';
import { formatDate, formatDateTime } from '@coldtrace/domain';
import Add from '@mui/icons-material/Add';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import type { DataColumn } from '../../../components/data-table';
import { todayInZone } from '../../../components/server-grid/zoned-day';
import { useAppSettings } from '../../../lib/app-settings';
import { useCalibrationCertificates } from '../api/list-calibrations';
import { useOrganizationTags } from '../api/list-tags';
import { useUploadCalibration } from '../api/upload-calibration';
import {
  CALIBRATION_CERTIFICATE_FIELDS,
  CALIBRATION_DEVICE_PREFIX,
  MODEL_NAME_MAX_LENGTH,
  calibrationUploadBody,
  emptyCalibrationCertificateForm,
  validateCalibrationCertificateForm,
  type CalibrationCertificateField,
  type CalibrationCertificateFormValues,
} from '../calibration-certificate-form';
import { FormDialog } from '../../../components/form-dialog';
import { useFormState } from '../use-form-state';
import { LabPdfDialog } from './calibration-lab-pdf-dialog';
import { ConfigList, ConfigSection } from './config-list';

const serialOf = (row: TCalibrationSummary) => row.serial_number ?? `Tag ${row.device_id}`;

function certificateColumns(timeZone: string): DataColumn<TCalibrationSummary>[] {
  return [
    { key: 'tag', header: 'Tag', render: serialOf, sortValue: serialOf, minWidth: 140 },
    { key: 'model', header: 'Model', render: (row) => row.model_name, minWidth: 140 },
    {
      key: 'calibrated',
      header: 'Calibrated on',
      nowrap: true,
      numeric: true,
      render: (row) => formatDate(row.calibration_timestamp, timeZone),
    },
    {
      key: 'due',
      header: 'Due',
      nowrap: true,
      numeric: true,
      render: (row) => formatDate(row.calibration_due, timeZone),
    },
    {
      key: 'uploaded',
      header: 'Uploaded',
      minWidth: 150,
      render: (row) => `${formatDateTime(row.created, timeZone)} by ${row.created_by_name}`,
    },
    {
      key: 'pdf',
      header: 'Certificate',
      render: (row) => {
        const of = `the certificate of ${serialOf(row)} calibrated on ${formatDate(row.calibration_timestamp, timeZone)}`;
        if (!row.lab_pdf) {
          return (
            <Link href={row.pdf_url} target="_blank" rel="noopener" aria-label={`PDF of ${of}`}>
              PDF
            </Link>
          );
        }
        // The lab's signed PDF is the certificate's PDF once attached.
        return (
          <Box sx={{ minWidth: 0 }}>
            <Link
              href={row.pdf_url}
              target="_blank"
              rel="noopener"
              aria-label={`Lab PDF of ${of}: ${row.lab_pdf.file_name}`}
              title={row.lab_pdf.file_name}
              sx={{
                display: 'block',
                maxWidth: 200,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
              }}
            >
              {row.lab_pdf.file_name}
            </Link>
            <Typography
              variant="caption"
              color="text.secondary"
              component="div"
              sx={{ whiteSpace: 'nowrap' }}
            >
              Lab PDF, attached {formatDate(row.lab_pdf.uploaded_at, timeZone)}
            </Typography>
          </Box>
        );
      },
    },
  ];
}

type DialogState = { device_id: number | null; model_name: string; serial?: string } | null;

/** Who may attach a lab PDF to a row's certificate: "Attach lab PDF", or "Replace lab PDF". */
function LabPdfButton({
  row,
  timeZone,
  onClick,
}: {
  row: TCalibrationSummary;
  timeZone: string;
  onClick: () => void;
}) {
  const label = row.lab_pdf ? 'Replace lab PDF' : 'Attach lab PDF';
  return (
    <Button
      size="small"
      sx={{ whiteSpace: 'nowrap' }}
      aria-label={`${label} of the certificate of ${serialOf(row)} calibrated on ${formatDate(row.calibration_timestamp, timeZone)}`}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}

/**
 * Calibration certificates of the organization's tags: every one on file (a
 * newer one never removes an older one: the list is the history), an upload,
 * and a Replace per row (a newer certificate for the same tag).
 */
export function CalibrationCertificatesSection({
  mayUpload,
  onSaved,
}: {
  mayUpload: boolean;
  onSaved: (message: string) => void;
}) {
  const { timeZone } = useAppSettings();
  const query = useCalibrationCertificates();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [labPdfOf, setLabPdfOf] = useState<TCalibrationSummary | null>(null);
  const columns = useMemo(() => certificateColumns(timeZone), [timeZone]);

  return (
    <ConfigSection
      title="Calibration certificates"
      description="Every certificate on file for your tags, each tag's latest first. A replaced certificate stays in the list: certificates are evidence and are never deleted. The PDF is the calibration lab's signed PDF once you attach it, else one made from the data entered here."
      note={
        mayUpload ? null : 'You can view certificates; uploading them needs a configuration role.'
      }
      action={
        mayUpload ? (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setDialog({ device_id: null, model_name: '' })}
          >
            Upload certificate
          </Button>
        ) : null
      }
    >
      <ConfigList
        query={query}
        what="the calibration certificates"
        label="Calibration certificates"
        columns={columns}
        rowKey={(row) => `${row.calibration_pdf_id}-${row.device_id}`}
        empty={
          mayUpload
            ? 'No certificates yet: upload the certificate of a tag to show its calibration due date.'
            : 'No certificates yet. Someone with a configuration role can upload them.'
        }
        actions={
          mayUpload
            ? (row) => (
                <>
                  <LabPdfButton row={row} timeZone={timeZone} onClick={() => setLabPdfOf(row)} />
                  <Button
                    size="small"
                    aria-label={`Replace the certificate of ${serialOf(row)}`}
                    onClick={() =>
                      setDialog({
                        device_id: row.device_id,
                        model_name: row.model_name,
                        serial: serialOf(row),
                      })
                    }
                  >
                    Replace
                  </Button>
                </>
              )
            : undefined
        }
      />
      {dialog ? (
        <CertificateDialog
          initial={dialog}
          timeZone={timeZone}
          onClose={() => setDialog(null)}
          onSaved={(serial) => {
            setDialog(null);
            onSaved(`Certificate of ${serial} uploaded`);
          }}
        />
      ) : null}
      {labPdfOf ? (
        <LabPdfDialog
          row={labPdfOf}
          serial={serialOf(labPdfOf)}
          timeZone={timeZone}
          onClose={() => setLabPdfOf(null)}
          onSaved={(message) => {
            setLabPdfOf(null);
            onSaved(message);
          }}
        />
      ) : null}
    </ConfigSection>
  );
}

function CertificateDialog({
  initial,
  timeZone,
  onClose,
  onSaved,
}: {
  initial: NonNullable<DialogState>;
  timeZone: string;
  onClose: () => void;
  onSaved: (serial: string) => void;
}) {
  const replacing = initial.serial !== undefined;
  const today = todayInZone(timeZone);
  const form = useFormState<CalibrationCertificateFormValues, CalibrationCertificateField>(
    emptyCalibrationCertificateForm(initial.device_id, initial.model_name),
    (values) => validateCalibrationCertificateForm(values, today),
  );
  const tags = useOrganizationTags(!replacing);
  const upload = useUploadCalibration();
  const options = useMemo(
    () =>
      (tags.data ?? [])
        .filter((tag) => tag.id !== undefined)
        .map((tag) => ({ id: tag.id!, label: tag.serial_number ?? `Tag ${tag.id}` }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [tags.data],
  );
  const chosen = options.find((option) => option.id === form.values.device_id) ?? null;

  const submit = () => {
    if (!form.check()) return;
    upload.mutate(calibrationUploadBody(form.values, timeZone), {
      onSuccess: () => onSaved(initial.serial ?? chosen?.label ?? ''),
      onError: (error) =>
        form.fail(error, CALIBRATION_CERTIFICATE_FIELDS, CALIBRATION_DEVICE_PREFIX),
    });
  };
  const day = (name: 'calibration_timestamp' | 'calibration_due', label: string, help: string) => (
    <TextField
      type="date"
      label={label}
      value={form.values[name]}
      onChange={(event) => form.set(name, event.target.value)}
      error={Boolean(form.errors[name])}
      helperText={form.errors[name] ?? help}
      required={name === 'calibration_timestamp'}
      fullWidth
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );

  return (
    <FormDialog
      title={replacing ? `Replace the certificate of ${initial.serial}` : 'Upload certificate'}
      onClose={onClose}
      onSubmit={submit}
      pending={upload.isPending}
      error={form.formError}
      submitLabel="Upload"
    >
      <Box sx={{ display: 'grid', gap: 2.5 }}>
        {replacing ? (
          <TextField
            label="Tag"
            value={initial.serial}
            fullWidth
            disabled
            helperText="The current certificate stays on file."
          />
        ) : (
          <Autocomplete
            options={options}
            value={chosen}
            loading={tags.isLoading}
            onChange={(_event, option) => form.set('device_id', option?.id ?? null)}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            renderInput={(params) => (
              <TextField
                {...params}
                label="Tag"
                required
                autoFocus
                error={Boolean(form.errors.device_id)}
                helperText={form.errors.device_id ?? 'The serial number of the calibrated tag'}
              />
            )}
          />
        )}
        <TextField
          label="Model"
          value={form.values.model_name}
          onChange={(event) => form.set('model_name', event.target.value)}
          error={Boolean(form.errors.model_name)}
          helperText={form.errors.model_name ?? 'The model as the certificate names it'}
          required
          fullWidth
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: MODEL_NAME_MAX_LENGTH } }}
        />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          {day('calibration_timestamp', 'Calibrated on', 'As on the certificate')}
          {day(
            'calibration_due',
            'Next calibration due',
            "Empty: the calibration day plus the organization's validity",
          )}
        </Box>
      </Box>
    </FormDialog>
  );
}
