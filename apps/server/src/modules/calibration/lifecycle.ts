import type { TExpiredCalibrationStart } from '@coldtrace/contract';
import { tagCalibrationStateAt } from '@coldtrace/domain';
import type { Db } from '../../db/client';
import { actorOf, recordAudit } from '../../kernel/audit';
import { AppError } from '../../kernel/errors';
import type { Principal } from '../../kernel/principal';
import * as repo from './repository';

/**
 * Starting a shipment on a tag whose calibration expired (issue 14 item 7,
 * docs/decisions/calibration-lifecycle.md). The organization's
 * `expired_calibration_start` decides: REFUSE answers 409 naming tag_id (the
 * upload's transaction rolls back: nothing is stored); WARN lets the start
 * through, keeps the warning on the record and writes an audit entry.
 */

/** What the start paths pass: the caller and the record that just started. */
export interface StartCheck {
  principal: Principal;
  requestId?: string | undefined;
  organizationId: string;
  tag: { id: number; serialNumber: string };
  record: {
    id: number;
    startTimeSeconds: number | null;
    calibrationWarning?: string | null;
  };
}

/** The tag's calibration state at the record's start (now while it has none). */
export async function calibrationAtStart(db: Db, check: StartCheck) {
  const at =
    check.record.startTimeSeconds === null
      ? new Date()
      : new Date(check.record.startTimeSeconds * 1000);
  const [settings, certificates] = await Promise.all([
    repo.calibrationSettingsOf(db, check.organizationId),
    repo.certificatesOfTag(db, check.organizationId, check.tag.id),
  ]);
  const periods = certificates.rows.map((c) => ({
    calibratedAt: c.calibrationTimestamp ?? c.created,
    due: c.calibrationDue,
  }));
  return {
    at,
    ...tagCalibrationStateAt(periods, at, settings.dueSoonDays),
    policy: settings.expiredStart as TExpiredCalibrationStart,
  };
}

/** One call per start path, inside the upload's transaction, after the record started. */
export async function checkStartAllowed(tx: Db, check: StartCheck): Promise<void> {
  if (check.record.calibrationWarning) return; // warned once already
  const { state, due, policy } = await calibrationAtStart(tx, check);
  if (state !== 'EXPIRED' || !due) return;
  const reason = `Tag ${check.tag.serialNumber}'s calibration expired on ${due.toISOString()}`;
  if (policy === 'REFUSE') {
    throw new AppError(
      'CONFLICT',
      `${reason}: this organization refuses to start a shipment on it`,
      { tag_id: reason },
    );
  }
  await repo.setCalibrationWarning(tx, check.organizationId, check.record.id, reason);
  await recordAudit(
    tx,
    {
      organizationId: check.organizationId,
      actor: actorOf(check.principal),
      requestId: check.requestId ?? null,
    },
    [
      {
        action: 'calibration.expired_start',
        entityType: 'record',
        entityId: check.record.id,
        recordId: check.record.id,
        // The due date passed (shown in the reader's zone); the reason names the tag.
        field: 'calibration_due',
        oldValue: null,
        newValue: due.toISOString(),
        reason,
      },
    ],
  );
}
