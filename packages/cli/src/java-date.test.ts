import { describe, expect, it } from 'vitest';
import { javaDateString } from './java-date.js';

const DEC_1 = Date.UTC(2026, 11, 1, 19, 48, 34);
const JUL_1 = Date.UTC(2026, 6, 1, 19, 48, 34);

describe('javaDateString', () => {
  it("prints zkCli's `EEE MMM dd HH:mm:ss zzz yyyy`", () => {
    expect(javaDateString(DEC_1, 'UTC')).toBe('Tue Dec 01 19:48:34 UTC 2026');
    expect(javaDateString(Date.UTC(2027, 0, 9, 0, 5, 7), 'UTC')).toBe('Sat Jan 09 00:05:07 UTC 2027');
  });

  it('uses the zone: its local time and the abbreviation of the season (CET, CEST, EST, IST)', () => {
    expect(javaDateString(DEC_1, 'Europe/Berlin')).toBe('Tue Dec 01 20:48:34 CET 2026');
    expect(javaDateString(JUL_1, 'Europe/Berlin')).toBe('Wed Jul 01 21:48:34 CEST 2026');
    expect(javaDateString(DEC_1, 'America/New_York')).toBe('Tue Dec 01 14:48:34 EST 2026');
    expect(javaDateString(DEC_1, 'Asia/Kolkata')).toBe('Wed Dec 02 01:18:34 IST 2026');
    expect(javaDateString(JUL_1, 'Europe/London')).toBe('Wed Jul 01 20:48:34 BST 2026');
    expect(javaDateString(DEC_1, 'Europe/London')).toBe('Tue Dec 01 19:48:34 GMT 2026');
  });

  it('names a zone without an abbreviation by its offset, as Java does (GMT-03:00)', () => {
    expect(javaDateString(DEC_1, 'America/Sao_Paulo')).toBe('Tue Dec 01 16:48:34 GMT-03:00 2026');
  });

  it('defaults to the local zone', () => {
    expect(javaDateString(DEC_1)).toBe(
      javaDateString(DEC_1, Intl.DateTimeFormat().resolvedOptions().timeZone),
    );
  });
});
