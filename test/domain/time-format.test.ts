import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localIso, offsetIso, parseTimeFilter, unixSeconds } from '../../src/domain/time-format.js';

/**
 * The contract's timestamp spellings (partner-api.md): order `created_at` is "ISO 8601 local-time
 * timestamp with microseconds, no offset"; `completed_at`, `quoted_at`, `delivery.completed_at` and the
 * sandbox clock carry an offset (`+00:00`, README); `X-Timestamp` is unix seconds. `from`/`to` filters
 * take an ISO 8601 date or date-time (offset optional; local time without one) or unix seconds (README).
 * The service's local time is UTC whatever the host's time zone (operator-api.md section 1): each block
 * runs under several process time zones (Tokyo +09:00, Moscow +03:00, New York −05:00/−04:00) and must
 * give the same answers.
 */
const ORIGINAL_TZ = process.env.TZ;
afterAll(() => {
  if (ORIGINAL_TZ === undefined) delete process.env.TZ;
  else process.env.TZ = ORIGINAL_TZ;
});

const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

const T1 = Date.UTC(2024, 0, 15, 9, 5, 3, 7); //      2024-01-15T09:05:03.007Z
const T2 = Date.UTC(2024, 0, 15, 22, 30, 0, 123); //  2024-01-15T22:30:00.123Z
const T3 = Date.UTC(2024, 6, 1, 2, 0, 0, 0); //       2024-07-01T02:00:00.000Z (summer)
const T4 = Date.UTC(2024, 1, 29, 23, 59, 59, 999); // 2024-02-29T23:59:59.999Z (leap day, last ms)

describe('offsetIso: UTC with microseconds and +00:00, whatever the process time zone', () => {
  describe.each(['UTC', 'Europe/Moscow', 'America/New_York'])('TZ=%s', (tz) => {
    beforeAll(() => {
      process.env.TZ = tz;
    });
    it.each([
      [0, '1970-01-01T00:00:00.000000+00:00'],
      [T1, '2024-01-15T09:05:03.007000+00:00'],
      [T2, '2024-01-15T22:30:00.123000+00:00'],
      [T3, '2024-07-01T02:00:00.000000+00:00'],
      [T4, '2024-02-29T23:59:59.999000+00:00'],
    ])('%d → %s', (ms, text) => {
      expect(offsetIso(ms)).toBe(text);
      expect(offsetIso(ms)).toMatch(OFFSET);
    });
  });
});

describe("localIso: the service's local time, which is UTC whatever the process time zone, with microseconds and no offset", () => {
  it.each(['UTC', 'Asia/Tokyo', 'Europe/Moscow', 'America/New_York'])('TZ=%s', (tz) => {
    process.env.TZ = tz;
    for (const [ms, text] of [
      [0, '1970-01-01T00:00:00.000000'],
      [T1, '2024-01-15T09:05:03.007000'],
      [T2, '2024-01-15T22:30:00.123000'],
      [T3, '2024-07-01T02:00:00.000000'],
      [T4, '2024-02-29T23:59:59.999000'],
    ] as const) {
      expect(localIso(ms)).toBe(text);
      expect(localIso(ms)).toMatch(LOCAL);
    }
    // the zone did take effect for the process (so the UTC answers above are not by accident)
    if (tz === 'Asia/Tokyo') expect(new Date(0).getHours()).toBe(9);
  });
});

describe('unixSeconds (X-Timestamp)', () => {
  it.each([
    [0, 0],
    [999, 0],
    [1000, 1],
    [1_700_000_000_000, 1_700_000_000],
    [1_700_000_000_999, 1_700_000_000], // floor, never rounded up into the future
    [T1, 1705309503],
  ])('%d ms → %d', (ms, s) => {
    expect(unixSeconds(ms)).toBe(s);
  });
});

describe('parseTimeFilter', () => {
  describe.each([
    // TZ of the process: a date-time without an offset is UTC (the service's local time) in every one
    ['UTC'],
    ['Asia/Tokyo'],
    ['Europe/Moscow'],
    ['America/New_York'],
  ])('TZ=%s', (tz) => {
    beforeAll(() => {
      process.env.TZ = tz;
    });

    it.each([
      // unix seconds
      ['1705309503', T1 - 7],
      ['0', 0],
      ['1', 1000],
      ['20240115', 20240115000], // digits only are unix seconds, even when they look like a basic-format date
      // explicit offsets: the same instant in every time zone
      ['2024-01-15T09:05:03Z', T1 - 7],
      ['2024-01-15T09:05:03.007Z', T1],
      ['2024-01-15T09:05:03.007000+00:00', T1], // offsetIso's own spelling
      ['2024-01-15T09:05:03.007999+00:00', T1], // microseconds below the millisecond are dropped
      ['2024-01-15T09:05:03.123456789Z', Date.UTC(2024, 0, 15, 9, 5, 3, 123)], // nanoseconds
      ['2024-01-15T09:05:03.5Z', Date.UTC(2024, 0, 15, 9, 5, 3, 500)],
      ['2024-01-15T12:05:03+03:00', T1 - 7],
      ['2024-01-15T12:05:03+0300', T1 - 7],
      ['2024-01-15T03:35:03-05:30', T1 - 7],
      ['2024-01-15 09:05:03Z', T1 - 7], // space instead of T
      ['2024-01-15T09:05Z', Date.UTC(2024, 0, 15, 9, 5)], // no seconds
      ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)], // leap day
      ['2000-02-29T00:00:00Z', Date.UTC(2000, 1, 29)], // divisible by 400: a leap year
    ])('%s → %d', (text, ms) => {
      expect(parseTimeFilter(text)).toBe(ms);
    });

    it.each([
      // no offset: the service's local time, UTC
      ['2024-01-15', Date.UTC(2024, 0, 15)],
      ['2024-01-15T09:05:03', T1 - 7],
      ['2024-01-15T09:05:03.007000', T1], // localIso's own spelling (created_at)
      ['2024-01-15 09:05', Date.UTC(2024, 0, 15, 9, 5)],
    ])('%s (local, UTC) → %d', (text, utc) => {
      expect(parseTimeFilter(text)).toBe(utc);
    });

    it('reads back what localIso and offsetIso write', () => {
      for (const ms of [T1, T2, Date.UTC(2024, 0, 1), Date.UTC(2023, 11, 31, 23, 59, 59, 999)]) {
        expect(parseTimeFilter(offsetIso(ms))).toBe(ms);
        expect(parseTimeFilter(localIso(ms))).toBe(ms);
      }
    });

    it.each([
      [''],
      ['yesterday'],
      ['1705309503000'], // milliseconds, not seconds: 13 digits
      ['-1'],
      ['1.5'],
      ['+1705309503'],
      ['2024-1-15'],
      ['15.01.2024'],
      ['2024/01/15'],
      ['2024-01-15T9:05'],
      ['2024-01-15T'],
      ['2024-01-15Z'], // an offset needs a time
      ['2024-01-15T09:05:03+3'],
      ['2024-01-15T09:05:03 +03:00'],
      ['2024-01-15T09:05:03.Z'],
      ['2024-13-01'],
      ['2024-00-10'],
      ['2024-01-00'],
      ['2024-01-32'],
      // calendar dates that do not exist must not roll over into the next month
      ['2024-02-30'],
      ['2023-02-29'],
      ['2024-04-31'],
      ['1900-02-29'], // divisible by 100, not by 400: not a leap year
      ['2100-02-29T00:00:00Z'],
      ['2024-06-31T12:00:00Z'],
      ['2024-01-15T25:00:00Z'],
      ['2024-01-15T23:60:00Z'],
      ['2024-01-15T09:05:60Z'],
      ['2024-01-15T09:05:03+25:00'],
    ])('%j → null', (text) => {
      expect(parseTimeFilter(text)).toBeNull();
    });
  });
});
