import {
  MAX_CALIBRATION_FILE_BYTES,
  MAX_CALIBRATION_FILE_NAME,
  type TCalibrationSummary,
} from '@coldtrace/contract';
import { formatDate, formatDateTime } from '@coldtrace/domain';
import UploadFile from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useId, useState, type ChangeEvent } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { isApiError } from '../../../lib/api-error';
import { useAttachCalibrationFile } from '../api/attach-calibration-file';

const MEGABYTES = MAX_CALIBRATION_FILE_BYTES / (1024 * 1024);

const VISUALLY_HIDDEN = {
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  height: 1,
  overflow: 'hidden',
  position: 'absolute',
  bottom: 0,
  left: 0,
  whiteSpace: 'nowrap',
  width: 1,
} as const;

/** "1.2 MB", "830 kB": the size of a chosen file. */
export function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

/** What is wrong with the chosen file before anything is sent, or null. */
export function labPdfProblem(file: { name: string; type: string; size: number }): string | null {
  const pdf = file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
  if (!pdf) return 'Choose a PDF file (the certificate as the calibration lab signed it)';
  if (file.size === 0) return 'The file is empty';
  if (file.size > MAX_CALIBRATION_FILE_BYTES) {
    return `The file is ${fileSize(file.size)}: at most ${MEGABYTES} MB`;
  }
  return null;
}

/** The file's name as the server keeps it (at most MAX_CALIBRATION_FILE_NAME characters, .pdf kept). */
export function uploadName(name: string): string {
  if (name.length <= MAX_CALIBRATION_FILE_NAME) return name;
  return `${name.slice(0, MAX_CALIBRATION_FILE_NAME - 4)}.pdf`;
}

/**
 * Attach (or replace) the calibration lab's signed PDF of a certificate: it
 * becomes the certificate's PDF for every tag the certificate lists; a
 * replaced one stays on file on the server.
 */
export function LabPdfDialog({
  row,
  serial,
  timeZone,
  onClose,
  onSaved,
}: {
  row: TCalibrationSummary;
  serial: string;
  timeZone: string;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const replacing = row.lab_pdf !== null;
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const attach = useAttachCalibrationFile();
  const helpId = useId();

  const submit = () => {
    if (!file) {
      setProblem('Choose the PDF to attach');
      return;
    }
    if (problem) return;
    setFormError(null);
    attach.mutate(
      { calibrationPdfId: row.calibration_pdf_id, file: new File([file], uploadName(file.name)) },
      {
        onSuccess: () =>
          onSaved(
            replacing
              ? `Lab PDF of ${serial} replaced`
              : `Lab PDF attached to the certificate of ${serial}`,
          ),
        onError: (error) => {
          const field = isApiError(error) ? error.fields.body : undefined;
          if (field) setProblem(field);
          else setFormError(error instanceof Error ? error.message : 'The upload failed');
        },
      },
    );
  };

  return (
    <FormDialog
      title={replacing ? `Replace the lab PDF of ${serial}` : `Attach the lab PDF of ${serial}`}
      onClose={onClose}
      onSubmit={submit}
      pending={attach.isPending}
      error={formError}
      submitLabel="Upload"
    >
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="body2">
          The certificate of {serial} calibrated on{' '}
          {formatDate(row.calibration_timestamp, timeZone)} ({row.model_name}). The PDF signed by
          the calibration lab becomes its PDF, for every tag it lists.
        </Typography>
        {row.lab_pdf ? (
          <Typography variant="body2" color="text.secondary">
            Attached now: {row.lab_pdf.file_name},{' '}
            {formatDateTime(row.lab_pdf.uploaded_at, timeZone)} by {row.lab_pdf.uploaded_by_name}.
            It stays on file.
          </Typography>
        ) : null}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}>
          {/* MUI's file button: the label draws the button, the (visually hidden) input takes the focus. */}
          <Button
            component="label"
            role={undefined}
            tabIndex={-1}
            variant="outlined"
            startIcon={<UploadFile />}
            sx={{
              '&:focus-within': {
                outline: '2px solid',
                outlineColor: 'primary.main',
                outlineOffset: 2,
              },
            }}
          >
            Choose PDF
            <Box
              component="input"
              type="file"
              accept="application/pdf,.pdf"
              aria-describedby={helpId}
              sx={VISUALLY_HIDDEN}
              onChange={(event: ChangeEvent<HTMLInputElement>) => {
                const chosen = event.target.files?.[0] ?? null;
                setFile(chosen);
                setProblem(chosen ? labPdfProblem(chosen) : null);
                setFormError(null);
              }}
            />
          </Button>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {file ? `${file.name} (${fileSize(file.size)})` : 'No file chosen'}
          </Typography>
        </Box>
        <Typography
          id={helpId}
          variant="caption"
          color={problem ? 'error' : 'text.secondary'}
          role={problem ? 'alert' : undefined}
        >
          {problem ?? `A PDF of at most ${MEGABYTES} MB.`}
        </Typography>
      </Box>
    </FormDialog>
  );
}
