import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  DISTANCE_UNITS,
  ZAboveOrBelow,
  ZAlarmStatus,
  ZBatteryHealth,
  ZClientType,
  ZCommandResult,
  ZDegreesUnit,
  ZDistanceUnit,
  ZFunctionOperator,
  ZMemoryHealth,
  ZNotificationStatus,
  ZNotificationType,
  ZRejectReason,
  ZRuleCombinator,
  ZTagStatus,
  ZTagType,
  ZTripStatus,
  ZUnaryOperator,
} from './enums';

/** Every enumeration with its exact values, as the spec writes them. */
const cases: [string, z.ZodEnum, string[]][] = [
  ['tag type (section 9)', ZTagType, ['XT1_NFC_MU', 'XT1_RT', 'XT1_MAX', 'NanoTag']],
  ['tag status', ZTagStatus, ['XT1_RESET', 'XT1_IDLE', 'XT1_PENDING', 'XT1_ACTIVE']],
  ['trip status', ZTripStatus, ['NOT_DEPARTED', 'IN_TRANSIT', 'ARRIVED']],
  ['battery health', ZBatteryHealth, ['OK', 'LOW_BATTERY', 'CRITICAL']],
  ['memory health', ZMemoryHealth, ['OK', 'MEMORY_FULL']],
  ['client type', ZClientType, ['WEB', 'IOS', 'ANDROID']],
  ['degrees unit', ZDegreesUnit, ['C', 'F']],
  ['alarm status', ZAlarmStatus, ['OK', 'Alarm']],
  ['above or below', ZAboveOrBelow, ['ABOVE', 'BELOW']],
  ['notification type', ZNotificationType, ['Departure', 'Alarm', 'Arrival']],
  ['notification status', ZNotificationStatus, ['Enabled', 'Disabled', 'Test']],
  ['rule combinator', ZRuleCombinator, ['AND', 'OR']],
  ['function operator', ZFunctionOperator, ['EQUALS', 'ANY_OF', 'ALWAYS_TRUE']],
  ['unary operator', ZUnaryOperator, ['IS', 'NOT']],
  ['command result', ZCommandResult, ['accepted', 'rejected']],
  ['reject reason', ZRejectReason, ['empty-data', 'record-missing', 'NA']],
];

describe('enumerations [SPEC-3, SPEC-4]', () => {
  it.each(cases)('%s has exactly the spec values', (_name, schema, values) => {
    expect(schema.options).toEqual(values);
    for (const v of values) expect(schema.safeParse(v).success).toBe(true);
  });

  it.each(cases)('%s is case-sensitive and closed', (_name, schema, values) => {
    expect(schema.safeParse(`${values[0]}_X`).success).toBe(false);
    const flipped =
      values[0]!.toLowerCase() === values[0] ? values[0]!.toUpperCase() : values[0]!.toLowerCase();
    expect(schema.safeParse(flipped).success).toBe(false);
    expect(schema.safeParse(undefined).success).toBe(false);
  });

  it('distance units hold every unit the spec names, plus british/clarke chain and link units', () => {
    const named = [
      'cm',
      'ft',
      'inch',
      'km',
      'm',
      'um',
      'mm',
      'mi',
      'yd',
      'nm',
      'nm_uk',
      'furlong',
      'survey_ft',
      'sears_yd',
      'german_m',
      'indian_yd',
      'gold_coast_ft',
    ];
    expect(DISTANCE_UNITS.slice(0, named.length)).toEqual(named);
    expect(ZDistanceUnit.options).toEqual([
      ...named,
      'british_chain_benoit',
      'british_chain_sears',
      'british_chain_sears_truncated',
      'british_ft',
      'british_yd',
      'chain',
      'chain_benoit',
      'chain_sears',
      'clarke_ft',
      'clarke_link',
      'link',
      'link_benoit',
      'link_sears',
      'fathom',
      'rod',
    ]);
    expect(new Set(DISTANCE_UNITS).size).toBe(DISTANCE_UNITS.length);
    expect(ZDistanceUnit.safeParse('parsec').success).toBe(false);
  });
});
