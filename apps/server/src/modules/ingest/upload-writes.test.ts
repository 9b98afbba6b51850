import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { deviceUser, recordOf, scannedShipment } from '../../../test/shipment-factories';
import { assembleSeries } from '../../kernel/series-store';
import * as repo from './repository';
import { UploadWrites } from './upload-writes';

/**
 * The unit of work of an upload: a write queued through it is in the state
 * the recomputation reads at once (nothing read back), and once sent, the
 * database holds exactly that state.
 */
describe('upload writes (the unit of work) [RULE-SERIES-3, FEAT-DURABILITY]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a queued series merge, scan, action and location sample are in the state before they are sent, and the database then holds that state', async () => {
    const user = await deviceUser(t);
    const temps = [5, 5.5, 6, 6.5];
    const { recordId, start } = await scannedShipment(user.client, temps, 'UOW');
    const record = await recordOf(t.db, recordId);
    const log = { warn: () => undefined };
    const at = (seconds: number) => new Date((start + seconds) * 1000);

    await t.db.transaction(async (tx) => {
      const writes = await UploadWrites.open(tx, record, false);
      const stored = await repo.loadRecordState(tx, record.id);
      expect(writes.state).toEqual(stored);

      // A series merge: the new points are in the state's chunks.
      expect(writes.mergePoints(log, temps.length, [7, 7.5])).toBe(2);
      expect(assembleSeries(writes.state.chunks)).toEqual([...temps, 7, 7.5]);

      // A scan later than the stored one becomes the latest scan.
      writes.addScan({
        organizationId: record.organizationId,
        recordId: record.id,
        tagId: record.tagId,
        tagSerialNumber: record.tagSerialNumber,
        timestamp: at(1200),
        createdByUserId: user.userId,
        uploadKey: `uow-scan-${record.id}`,
      });
      expect(writes.state.lastScan).toEqual({ timestamp: at(1200), userId: user.userId });

      // An action later than every stored one is the latest action.
      writes.addAction({
        organizationId: record.organizationId,
        recordId: record.id,
        tagId: record.tagId,
        tagSerialNumber: record.tagSerialNumber,
        actionType: 'STATUS',
        latitude: 0,
        longitude: 0,
        timestamp: at(1300),
        createdByUserId: user.userId,
        uploadKey: `uow-action-${record.id}`,
      });
      expect(writes.state.lastActionAt).toEqual(at(1300));

      // Location samples, in time order (a later one queued first), the same one once.
      const sample = (seconds: number, latitude: number) => ({
        organizationId: record.organizationId,
        recordId: record.id,
        tagId: record.tagId,
        latitude,
        longitude: 4.9,
        timestamp: at(seconds),
      });
      writes.addSample(sample(900, 52.4));
      writes.addSample(sample(600, 52.3));
      writes.addSample(sample(900, 52.4));
      expect(writes.state.samples).toEqual([
        ...stored.samples,
        { latitude: 52.3, longitude: 4.9, timestamp: at(600) },
        { latitude: 52.4, longitude: 4.9, timestamp: at(900) },
      ]);

      // Nothing was sent yet: the database still holds the state as it was read.
      const before = await repo.loadRecordState(tx, record.id);
      expect(before.lastScan).toEqual(stored.lastScan);
      expect(before.lastActionAt).toEqual(stored.lastActionAt);
      expect(assembleSeries(before.chunks)).toEqual(temps);

      // Sent: what the database holds is the state the unit of work kept.
      await writes.flush();
      expect(await repo.loadRecordState(tx, record.id)).toEqual(writes.state);
    });
  });

  it('a scan earlier than the stored latest one is stored but does not become the latest', async () => {
    const user = await deviceUser(t);
    const { recordId, start } = await scannedShipment(user.client, [5, 5], 'UOW');
    const record = await recordOf(t.db, recordId);
    await t.db.transaction(async (tx) => {
      const writes = await UploadWrites.open(tx, record, false);
      const latest = writes.state.lastScan;
      expect(latest?.timestamp).toEqual(new Date((start + 600) * 1000));
      writes.addScan({
        organizationId: record.organizationId,
        recordId: record.id,
        tagId: record.tagId,
        tagSerialNumber: record.tagSerialNumber,
        timestamp: new Date((start + 60) * 1000),
        createdByUserId: null,
        uploadKey: `uow-early-${record.id}`,
      });
      expect(writes.state.lastScan).toEqual(latest);
      await writes.flush();
      expect(await repo.loadRecordState(tx, record.id)).toEqual(writes.state);
    });
  });
});
