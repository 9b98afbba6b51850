import {
  ZNanotagFirstSampleUpload,
  ZNanotagHealthUpload,
  ZNanotagPacketUpload,
  ZRtConfigureUpload,
  ZRtPacketUpload,
  ZRtStopUpload,
  ZXt1Upload,
} from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import type { RecordRow } from '../../db/schema-shipments';
import { AppError } from '../../kernel/errors';
import { decodeNanotagFirstSample, decodeNanotagHealth, decodeNanotagPacket } from './nanotag';
import { decodeRtConfigure, decodeRtPacket, decodeRtStop } from './rt';
import { decodeXt1 } from './xt1';

/**
 * Each device family only decodes its upload into the one common shape
 * (`decoded.ts`); the pipeline (`pipeline.ts`) runs it. These decode a
 * representative upload of each family, without a database: what the shape
 * says is what the API tests then see the pipeline do.
 */

const START = 1_700_000_000;

/** The record a nanotag frame lands in: started at START, 60 s points, no start delay. */
const run = { startTimeSeconds: START, startDelay: 0, measurementInterval: 60 } as RecordRow;

describe('device decoders into the one upload shape [SPEC-7.2, SPEC-7.4, SPEC-7.5]', () => {
  it('xt1: a scan names its tag, its run by start, its settings, patches, points, position and scan row', () => {
    const body = ZXt1Upload.parse({
      tag_id: 'SN-1',
      timestamp: '2023-11-14T23:00:00Z',
      high_threshold: 8,
      low_threshold: 2,
      measurement_interval: 60,
      start_delay: 0,
      start_time_seconds: START,
      battery_health: 'OK',
      product_designation: 'Vaccine',
      latitude: 48.1,
      longitude: 11.5,
      temps: [4, 5, 6],
      temperatures_offset_index: 10,
    });
    const decoded = decodeXt1('SCAN', body);
    expect(decoded).toMatchObject({
      upload: 'xt1.SCAN',
      tag: { ident: { tag_id: 'SN-1' }, defaultType: 'XT1_NFC_MU', create: true },
      replay: 'tag-and-record',
      settings: { highThreshold: 8, lowThreshold: 2, measurementInterval: 60, startDelay: 0 },
      consecutiveFallback: { product: 'Vaccine' },
      record: { by: 'run', start: START, create: true, startOverwrites: false, orLatest: false },
      checks: { startAllowed: false },
      patch: {
        fill: true,
        shipment: { overwrite: false },
        productConsecutive: false,
        health: { battery: 'OK', memory: undefined, when: 'newer' },
      },
      points: { offset: 10, temps: [4, 5, 6] },
      location: { latitude: 48.1, longitude: 11.5, temperature: 'last-kept' },
      row: {
        kind: 'scan',
        status: undefined,
        reported: { highThreshold: 8, lowThreshold: 2, startTimeSeconds: START, stopTime: null },
      },
    });
    // A scan configures nothing and stops nothing.
    expect(decoded.configure).toBeUndefined();
    expect(decoded.patch?.stop).toBeUndefined();
    expect(decoded.prologue.key).toEqual({ kind: 'xt1.SCAN', body });
    expect(decoded.prologue.timestamp?.(new Date())).toEqual(new Date(body.timestamp));
  });

  it('xt1: a stop does not create, falls back to the latest run, stops and writes its action row', () => {
    const body = ZXt1Upload.parse({
      tag_id: 'SN-1',
      timestamp: '2023-11-14T23:00:00Z',
      high_threshold: 8,
      low_threshold: 2,
      measurement_interval: 60,
      start_delay: 0,
      stop_time_seconds: START + 3600,
    });
    const decoded = decodeXt1('STOP', body);
    expect(decoded).toMatchObject({
      upload: 'xt1.STOP',
      tag: { create: false },
      record: { by: 'run', create: false, orLatest: true },
      patch: { stop: { at: new Date((START + 3600) * 1000) } },
      points: { offset: 0, temps: [] },
      row: { kind: 'action', type: 'STOP' },
    });
    expect(decodeXt1('CONFIGURE', body).configure?.settings).toMatchObject({ highThreshold: 8 });
    expect(decodeXt1('CONFIGURE', body).patch?.pendingTakes).toBe('settings');
  });

  it('rt: configure, stop and a packet decode into the same shape', () => {
    const configure = decodeRtConfigure(
      ZRtConfigureUpload.parse({
        tag_id: 'RT-1',
        measurement_interval: 300,
        max_transmit_interval: 900,
      }),
    );
    expect(configure).toMatchObject({
      upload: 'rt.CONFIGURE',
      tag: { defaultType: 'XT1_RT', create: true },
      configure: {
        settings: { measurementInterval: 300, transmitInterval: 900 },
        confirms: 'configure',
      },
      settings: 'configuration',
      record: { by: 'run', create: true },
      patch: { pendingTakes: 'configuration' },
      row: { kind: 'action', type: 'CONFIGURE', unlessUnchanged: 'tag-or-record' },
    });
    // Without a timestamp or request id a configuration has no key (it is applied again).
    expect(configure.prologue.key?.identified).toBe(false);

    const stop = decodeRtStop(ZRtStopUpload.parse({ tag_id: 'RT-1', stop_time_seconds: START }));
    expect(stop).toMatchObject({
      configure: { settings: {}, confirms: 'stop' },
      record: { by: 'run', create: false, orLatest: true },
      patch: { stop: { at: new Date(START * 1000) } },
      row: { kind: 'action', type: 'STOP', unlessUnchanged: 'record' },
    });

    const byStart = decodeRtPacket(
      ZRtPacketUpload.parse({ tag_id: 'RT-1', temps: [3, 4], start_time_seconds: START }),
    );
    expect(byStart).toMatchObject({
      upload: 'rt.packet',
      settings: 'configuration',
      record: { by: 'run', start: START, create: true },
      points: { offset: 0, temps: [3, 4] },
    });
    expect(byStart.prologue.key).toBeUndefined();
    expect(byStart.row).toBeUndefined();
    const byEnd = decodeRtPacket(
      ZRtPacketUpload.parse({ tag_id: 'RT-1', temps: [3], packet_end_time_seconds: START + 60 }),
    );
    expect(byEnd.record).toEqual({ by: 'covering', at: START + 60, orActive: true });
  });

  it('nanotag: a frame is placed by its end time in its run, with its position; first sample and health', () => {
    const packet = decodeNanotagPacket(
      ZNanotagPacketUpload.parse({
        tag_id: 'NT-1',
        temps: [5, 6, 7],
        packet_end_time_seconds: START + 600,
        location: { latitude: 52.5, longitude: 13.4 },
        frame_id: 'f-1',
      }),
    );
    expect(packet).toMatchObject({
      upload: 'nanotag.packet',
      tag: { defaultType: 'NanoTag', create: false },
      record: { by: 'covering', at: START + 600, orActive: false },
      points: { temps: [5, 6, 7] },
      location: {
        latitude: 52.5,
        longitude: 13.4,
        at: new Date((START + 600) * 1000),
        frameId: 'f-1',
        temperature: 'last-sent',
      },
    });
    // Points 8, 9, 10 of a run started at START with 60 s points.
    const offset = packet.points!.offset as (record: RecordRow) => number;
    expect(offset(run)).toBe(8);
    // A frame that would begin before the run's first point is refused, naming the field.
    expect(() => offset({ ...run, startTimeSeconds: START + 590 })).toThrow(AppError);
    // An unknown position is no location.
    const unknown = decodeNanotagPacket(
      ZNanotagPacketUpload.parse({
        tag_id: 'NT-1',
        temps: [5],
        packet_end_time_seconds: START,
        location: { latitude: -91, longitude: -181 },
      }),
    );
    expect(unknown.location).toBeUndefined();

    const first = decodeNanotagFirstSample(
      ZNanotagFirstSampleUpload.parse({
        tag_id: 'NT-1',
        first_sample_timestamp: new Date((START + 120) * 1000).toISOString(),
      }),
    );
    expect(first).toMatchObject({
      settings: 'configuration',
      record: { by: 'run', create: true, startOverwrites: true },
      checks: { startAllowed: true },
      row: { kind: 'action', type: 'FIRST_SAMPLE', at: new Date((START + 120) * 1000) },
    });
    const start = (first.record as { start: (s: object) => number }).start;
    expect(start({ measurementInterval: 60, startDelay: 30 })).toBe(START + 90);
    // Not configured: no run can start.
    expect(() => start({})).toThrow(AppError);

    const health = decodeNanotagHealth(
      ZNanotagHealthUpload.parse({ tag_id: 'NT-1', battery_health: 'LOW_BATTERY' }),
    );
    expect(health).toMatchObject({
      record: { by: 'latest', orNone: false },
      patch: { health: { battery: 'LOW_BATTERY', when: 'changed' } },
      row: { kind: 'action', type: 'HEALTH', unlessUnchanged: 'record' },
    });
    expect(health.prologue.key).toBeUndefined();
  });
});
