import {
  SIGNATURE_MEANING_LABELS,
  secondFactorSuffix,
  type TClientType,
  type TDegreesUnit,
  type TExcursionAlarm,
} from '@coldtrace/contract';
import { formatDateTime, formatDuration } from '@coldtrace/domain';
import ArrowDownwardRounded from '@mui/icons-material/ArrowDownwardRounded';
import ArrowUpwardRounded from '@mui/icons-material/ArrowUpwardRounded';
import DoneAllRounded from '@mui/icons-material/DoneAllRounded';
import SensorsOffRounded from '@mui/icons-material/SensorsOffRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState } from 'react';
import { statusColors } from '../../../app/theme';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { useAppSettings } from '../../../lib/app-settings';
import type { useRecordAlarms } from '../api/get-record-alarms';
import {
  awaitsOwnSignature,
  closeCauseLabel,
  closedByLabel,
  foldSuperseded,
  isAlarmClosed,
  isSuperseded,
  openAlarmsFirst,
} from '../alarm-state';
import { alarmPeak, alarmTitle, formatDegreeMinutes, silenceOf } from '../display';
import { AcknowledgeDialog, DismissDialog } from './alarm-dialogs';
import { SectionCard } from './section-card';

const CLIENT_LABELS: Record<TClientType, string> = { WEB: 'web', IOS: 'iOS', ANDROID: 'Android' };

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Typography
      variant="body2"
      component="span"
      className="tabular-nums"
      sx={{ whiteSpace: 'nowrap' }}
    >
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {label}{' '}
      </Box>
      {value}
    </Typography>
  );
}

/**
 * Why, by whom and when a closed alarm closed: the cause in words, the person
 * (or the system), the date in the user's zone, the reason, and the signature
 * of the change that closed it when a person's signed change did.
 */
function ClosedNote({ alarm, timeZone }: { alarm: TExcursionAlarm; timeZone: string }) {
  const cause = closeCauseLabel(alarm);
  const signature = alarm.close_signature;
  return (
    <Box
      sx={{ mt: 1, color: 'text.secondary', overflowWrap: 'anywhere' }}
      data-testid="alarm-closed"
    >
      <Typography variant="body2">
        Closed{cause ? ` (${cause})` : ''} by{' '}
        <Box component="span" sx={{ color: 'text.primary', fontWeight: 600 }}>
          {closedByLabel(alarm)}
        </Box>
        {alarm.closed_at ? ` on ${formatDateTime(alarm.closed_at, timeZone)}` : ''}
        {alarm.close_reason ? (
          <>
            :{' '}
            <Box component="q" sx={{ fontStyle: 'italic', color: 'text.primary' }}>
              {alarm.close_reason}
            </Box>
          </>
        ) : null}
      </Typography>
      {signature ? (
        <Typography variant="body2" sx={{ mt: 0.25 }} data-testid="alarm-close-signature">
          Change signed by{' '}
          <Box component="span" sx={{ color: 'text.primary', fontWeight: 600 }}>
            {signature.printed_name}
          </Box>{' '}
          on {formatDateTime(signature.signed_at, timeZone)} —{' '}
          {SIGNATURE_MEANING_LABELS[signature.meaning]}
          {secondFactorSuffix(signature.second_factor)}
        </Typography>
      ) : null}
    </Box>
  );
}

/**
 * An alarm a late upload merged into the one above it (close cause MERGED):
 * folded under it, with when it ran and how it was reviewed; it needs no
 * signature of its own (acknowledging the survivor covers it).
 */
function AbsorbedAlarm({
  alarm,
  survivorId,
  timeZone,
}: {
  alarm: TExcursionAlarm;
  survivorId: string | undefined;
  timeZone: string;
}) {
  return (
    <Box
      component="li"
      sx={{ listStyle: 'none', pl: 1.5, borderLeft: 2, borderColor: 'divider' }}
      data-testid="alarm-absorbed"
    >
      <Typography variant="body2" sx={{ fontWeight: 600, color: 'text.secondary' }}>
        Alarm {alarm.id} · {alarmTitle(alarm)} · Merged into alarm{' '}
        {alarm.superseded_by ?? survivorId}
      </Typography>
      <Typography variant="body2" color="text.secondary" className="tabular-nums">
        {formatDateTime(alarm.start_time, timeZone)} – {formatDateTime(alarm.end_time, timeZone)}
        {alarm.closed_at ? ` · merged on ${formatDateTime(alarm.closed_at, timeZone)}` : ''}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {alarm.signature
          ? `Signed by ${alarm.signature.printed_name} on ${formatDateTime(alarm.signature.signed_at, timeZone)} with alarm ${survivorId}`
          : alarm.acknowledged
            ? `Acknowledged by ${alarm.acknowledged_by ?? 'a former user'}`
            : `Acknowledging alarm ${survivorId} acknowledges it too`}
      </Typography>
    </Box>
  );
}

function AlarmItem({
  alarm,
  absorbed,
  now,
  unit,
  timeZone,
  canAct,
  selectable,
  selected,
  onSelect,
  onAcknowledge,
  onDismiss,
}: {
  alarm: TExcursionAlarm;
  /** The alarms merged into this one, folded under it. */
  absorbed: readonly TExcursionAlarm[];
  /** When the alarms were read (ms): an open silence lasts until then. */
  now: number;
  unit: TDegreesUnit;
  timeZone: string;
  canAct: boolean;
  /** Several alarms can be acknowledged at once: show the checkbox. */
  selectable: boolean;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onAcknowledge: () => void;
  onDismiss: () => void;
}) {
  const { temperatureDecimals: decimals } = useAppSettings();
  const above = alarm.above_or_below !== 'BELOW';
  const acknowledged = alarm.acknowledged === true;
  const dismissed = alarm.dismissed === true;
  const closed = isAlarmClosed(alarm);
  const superseded = isSuperseded(alarm);
  const noData = alarm.kind === 'no_data';
  const muted = acknowledged || dismissed || closed;
  const title = alarmTitle(alarm);
  // A no-data alarm is silence: since when, the interval expected, how long.
  const silence = noData ? silenceOf(alarm, timeZone, now) : null;
  const when =
    silence?.text ??
    `${formatDateTime(alarm.start_time, timeZone)} – ${formatDateTime(alarm.end_time, timeZone)}`;
  const colour = muted
    ? statusColors.acknowledged
    : above || noData
      ? statusColors.alarm
      : statusColors.inTransit;
  const needsSignature = !acknowledged && !superseded;
  return (
    <Box
      component="li"
      sx={{
        listStyle: 'none',
        border: 1,
        borderColor: 'divider',
        borderLeft: 4,
        borderLeftColor: colour,
        borderRadius: 1,
        p: 1.5,
        bgcolor: muted ? 'action.hover' : 'background.paper',
      }}
      data-testid="alarm-item"
      data-state={closed ? 'CLOSED' : 'OPEN'}
      data-kind={alarm.kind}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        {selectable && needsSignature ? (
          <Checkbox
            checked={selected}
            onChange={(event) => onSelect(event.target.checked)}
            size="small"
            sx={{ mt: -0.75, ml: -0.75 }}
            slotProps={{
              input: {
                'aria-label': `Select ${title} from ${formatDateTime(alarm.start_time, timeZone)}`,
              },
            }}
          />
        ) : null}
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
          >
            <Box component="span" aria-hidden sx={{ display: 'inline-flex', color: colour }}>
              {noData ? (
                <SensorsOffRounded fontSize="small" data-testid="alarm-icon-silence" />
              ) : above ? (
                <ArrowUpwardRounded fontSize="small" />
              ) : (
                <ArrowDownwardRounded fontSize="small" />
              )}
            </Box>
            <Typography
              component="h3"
              // Focus lands here once its dialog closes and its buttons are gone.
              tabIndex={-1}
              data-alarm-heading={alarm.id}
              sx={{
                fontWeight: 600,
                fontSize: '0.9375rem',
                color: muted ? 'text.secondary' : 'text.primary',
                textDecoration: dismissed ? 'line-through' : undefined,
              }}
            >
              {title}
            </Typography>
            {acknowledged ? (
              <Chip
                size="small"
                icon={<DoneAllRounded />}
                label="Acknowledged"
                variant="outlined"
              />
            ) : null}
            {dismissed ? <Chip size="small" label="Dismissed" variant="outlined" /> : null}
            {absorbed.length > 0 || superseded ? (
              <Typography variant="body2" component="span" color="text.secondary">
                Alarm {alarm.id}
              </Typography>
            ) : null}
            {superseded ? (
              <Chip
                size="small"
                label={`Merged into alarm ${alarm.superseded_by}`}
                variant="outlined"
                sx={{ color: 'text.secondary', borderColor: 'text.disabled' }}
              />
            ) : closed ? (
              <Chip
                size="small"
                label="Closed"
                variant="outlined"
                sx={{ color: 'text.secondary', borderColor: 'text.disabled' }}
              />
            ) : null}
          </Stack>
          <Typography
            variant="body2"
            className="tabular-nums"
            sx={{
              mt: 0.5,
              color: muted ? 'text.secondary' : 'text.primary',
              textDecoration: dismissed ? 'line-through' : undefined,
            }}
          >
            {when}
          </Typography>
          <Stack direction="row" sx={{ mt: 0.5, flexWrap: 'wrap', columnGap: 2, rowGap: 0.25 }}>
            {silence ? (
              <Fact label="Silence" value={silence.duration} />
            ) : alarm.kind === 'budget' ? (
              // A stability budget alarm: the time beyond the band across the legs when it ran out.
              <Fact label="Used across legs" value={formatDuration(alarm.duration)} />
            ) : (
              <>
                <Fact label="Duration" value={formatDuration(alarm.duration)} />
                <Fact
                  label="Degree-minutes"
                  value={formatDegreeMinutes(alarm.degree_minutes, unit)}
                />
                <Fact label={above ? 'Peak' : 'Lowest'} value={alarmPeak(alarm, unit, decimals)} />
              </>
            )}
          </Stack>
          {alarm.signature ? (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ mt: 1, overflowWrap: 'anywhere' }}
              data-testid="alarm-signature"
            >
              Signed by{' '}
              <Box component="span" sx={{ color: 'text.primary', fontWeight: 600 }}>
                {alarm.signature.printed_name}
              </Box>{' '}
              on {formatDateTime(alarm.signature.signed_at, timeZone)} —{' '}
              {SIGNATURE_MEANING_LABELS[alarm.signature.meaning]}
              {secondFactorSuffix(alarm.signature.second_factor)}:{' '}
              <Box component="span" sx={{ color: 'text.primary' }}>
                {alarm.signature.comment}
              </Box>
            </Typography>
          ) : acknowledged ? (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ mt: 1, overflowWrap: 'anywhere' }}
            >
              Acknowledged by {alarm.acknowledged_by ?? 'a former user'}
              {alarm.acknowledged_at
                ? ` on ${formatDateTime(alarm.acknowledged_at, timeZone)}`
                : ''}
              {alarm.acknowledge_client_type
                ? ` (${CLIENT_LABELS[alarm.acknowledge_client_type]})`
                : ''}
              {alarm.acknowledge_comment ? (
                <>
                  :{' '}
                  <Box component="q" sx={{ fontStyle: 'italic', color: 'text.primary' }}>
                    {alarm.acknowledge_comment}
                  </Box>
                </>
              ) : null}
            </Typography>
          ) : null}
          {closed ? <ClosedNote alarm={alarm} timeZone={timeZone} /> : null}
          {absorbed.length > 0 ? (
            <Stack
              component="ul"
              spacing={1}
              sx={{ p: 0, m: 0, mt: 1 }}
              aria-label="Merged into this alarm"
            >
              {absorbed.map((a) => (
                <AbsorbedAlarm key={a.id} alarm={a} survivorId={alarm.id} timeZone={timeZone} />
              ))}
            </Stack>
          ) : null}
          {dismissed ? (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ mt: 0.5, overflowWrap: 'anywhere' }}
              data-testid="alarm-dismissed"
            >
              Dismissed by {alarm.dismissed_by ?? 'a former user'}
              {alarm.dismissed_at ? ` on ${formatDateTime(alarm.dismissed_at, timeZone)}` : ''}
              {alarm.dismiss_reason ? (
                <>
                  :{' '}
                  <Box component="q" sx={{ fontStyle: 'italic', color: 'text.primary' }}>
                    {alarm.dismiss_reason}
                  </Box>
                </>
              ) : null}
            </Typography>
          ) : null}
          {/* A closed alarm can still be acknowledged (reviewed); dismissing it would change nothing. */}
          {canAct && (needsSignature || (!dismissed && !closed)) ? (
            <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
              {needsSignature ? (
                <Button size="small" variant="outlined" onClick={onAcknowledge}>
                  Acknowledge
                </Button>
              ) : null}
              {!dismissed && !closed ? (
                <Button size="small" color="inherit" onClick={onDismiss}>
                  Dismiss
                </Button>
              ) : null}
            </Stack>
          ) : null}
        </Box>
      </Stack>
    </Box>
  );
}

/**
 * Where focus goes when an alarm's dialog closes (issue 35): back to the button
 * that opened it while it is still there, else (acknowledging or dismissing
 * removed it) to the heading of the first alarm the dialog was about, else to
 * the card's heading; never to the page body. The dialog's own focus return
 * runs first (as it unmounts), so this only steps in when that found nothing.
 */
function useFocusAfterDialog(open: boolean) {
  const listRef = useRef<HTMLUListElement>(null);
  const pending = useRef<{ opener: Element | null; alarmIds: string[] } | null>(null);

  useEffect(() => {
    const target = pending.current;
    if (open || !target) return;
    pending.current = null;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const list = listRef.current;
    const heading = target.alarmIds
      .map((id) => list?.querySelector<HTMLElement>(`[data-alarm-heading="${CSS.escape(id)}"]`))
      .find((element) => element);
    const card = list?.closest('section')?.querySelector<HTMLElement>('h2');
    if (target.opener instanceof HTMLElement && target.opener.isConnected) target.opener.focus();
    else if (heading) heading.focus();
    else if (card) {
      card.tabIndex = -1;
      card.focus();
    }
  }, [open]);

  return {
    listRef,
    /** Remembers the opener (the focused button) and the alarms the dialog is about. */
    opened: (alarms: readonly TExcursionAlarm[]) => {
      pending.current = {
        opener: document.activeElement,
        alarmIds: alarms.flatMap((a) => (a.id === undefined ? [] : [a.id])),
      };
    },
  };
}

/**
 * The record's alarms (acknowledged, dismissed and closed ones included, open
 * ones first): direction, kind, times, duration, degree-minutes, peak and
 * state; a closed alarm says why, by whom and when it closed; a no-data alarm
 * reads as silence; an alarm a late upload merged into another is folded under
 * it and needs no signature of its own. Whoever may act
 * acknowledges one or several (with a comment) and dismisses one at a time;
 * both show without a page reload.
 */
export function AlarmsCard({
  recordId,
  query,
  unit,
  timeZone,
  canAct,
}: {
  recordId: string;
  query: ReturnType<typeof useRecordAlarms>;
  unit: TDegreesUnit;
  timeZone: string;
  canAct: boolean;
}) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [acknowledging, setAcknowledging] = useState<TExcursionAlarm[] | null>(null);
  const [dismissing, setDismissing] = useState<TExcursionAlarm | null>(null);
  const { listRef, opened } = useFocusAfterDialog(acknowledging !== null || dismissing !== null);
  const alarms = useMemo(() => openAlarmsFirst(query.data ?? []), [query.data]);
  // Superseded alarms folded under the alarm that absorbed them.
  const folded = useMemo(() => foldSuperseded(alarms), [alarms]);
  // Those that need a signature of their own (a superseded alarm goes with its survivor).
  const open = alarms.filter(awaitsOwnSignature);
  const mergedCount = alarms.filter(isSuperseded).length;
  const closedCount = alarms.filter((a) => isAlarmClosed(a) && !isSuperseded(a)).length;
  // Only alarms still unacknowledged can stay selected.
  const chosen = open.filter((a) => a.id !== undefined && selected.has(a.id));

  const counts = [
    `${alarms.length} alarm${alarms.length === 1 ? '' : 's'}`,
    ...(closedCount > 0 ? [`${closedCount} closed`] : []),
    ...(mergedCount > 0 ? [`${mergedCount} merged`] : []),
    `${alarms.filter((a) => a.acknowledged).length} acknowledged`,
    `${alarms.filter((a) => a.dismissed).length} dismissed`,
  ].join(' · ');

  let body;
  if (query.isError) {
    body = (
      <LoadError
        what="the alarms"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (!query.data) {
    body = (
      <Stack spacing={1} aria-label="Loading the alarms" role="status">
        <Skeleton variant="rounded" height={96} />
        <Skeleton variant="rounded" height={96} />
      </Stack>
    );
  } else if (alarms.length === 0) {
    body = (
      <EmptyState>No alarms for this record: no excursion beyond its thresholds so far.</EmptyState>
    );
  } else {
    body = (
      <Stack component="ul" spacing={1} sx={{ p: 0, m: 0 }} ref={listRef}>
        {folded.map(({ alarm, absorbed }) => (
          <AlarmItem
            key={alarm.id}
            alarm={alarm}
            absorbed={absorbed}
            now={query.dataUpdatedAt}
            unit={unit}
            timeZone={timeZone}
            canAct={canAct}
            selectable={canAct && open.length > 1}
            selected={alarm.id !== undefined && selected.has(alarm.id)}
            onSelect={(on) =>
              setSelected((current) => {
                const next = new Set(current);
                if (on) next.add(alarm.id!);
                else next.delete(alarm.id!);
                return next;
              })
            }
            onAcknowledge={() => {
              opened([alarm]);
              setAcknowledging([alarm]);
            }}
            onDismiss={() => {
              opened([alarm]);
              setDismissing(alarm);
            }}
          />
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Alarms"
      subtitle={query.data ? counts : undefined}
      action={
        canAct && open.length > 1 ? (
          <Button
            size="small"
            variant="contained"
            disabled={chosen.length === 0}
            onClick={() => {
              opened(chosen);
              setAcknowledging(chosen);
            }}
          >
            Acknowledge selected{chosen.length > 0 ? ` (${chosen.length})` : ''}
          </Button>
        ) : undefined
      }
    >
      {body}
      {acknowledging ? (
        <AcknowledgeDialog
          recordId={recordId}
          alarms={acknowledging}
          timeZone={timeZone}
          onClose={() => setAcknowledging(null)}
          onAcknowledged={() => setSelected(new Set())}
        />
      ) : null}
      {dismissing ? (
        <DismissDialog
          recordId={recordId}
          alarm={dismissing}
          timeZone={timeZone}
          onClose={() => setDismissing(null)}
        />
      ) : null}
    </SectionCard>
  );
}
