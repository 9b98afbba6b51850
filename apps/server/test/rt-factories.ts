import { expect } from 'vitest';
import { epoch, serial, type DeviceUser } from './shipment-factories';

const RT = '/api/devices/rt/';

/**
 * A running rt record for the alarm tests: configured (2-8 °C, a point a minute,
 * sent every `transmit` seconds) and started two hours ago through the device
 * API. Answers its serial, start (seconds) and record id.
 */
export async function startedRtRecord(user: DeviceUser, prefix: string, transmit: number) {
  const sn = serial(prefix);
  const start = epoch(new Date()) - 2 * 3600;
  const configured = await user.device.post(`${RT}configure-action/`, {
    tag_id: sn,
    request_id: `${sn}-1`,
    high_threshold: 8,
    low_threshold: 2,
    measurement_interval: 60,
    max_transmit_interval: transmit,
  });
  expect(configured.statusCode, configured.body).toBe(200);
  const started = await user.device.post(`${RT}start-action/`, {
    tag_id: sn,
    request_id: `${sn}-2`,
    start_time_seconds: start,
  });
  expect(started.statusCode, started.body).toBe(200);
  return { sn, start, recordId: Number(configured.json().record_id) };
}
