/**
 * A time as Java's `Date.toString()` prints it (`Tue Dec 01 19:48:34 UTC 2026`: `EEE MMM dd HH:mm:ss zzz yyyy`
 * in the local time zone), which is how zkCli's StatPrinter shows ctime and mtime, so that scripts written for
 * zkCli read ours the same way.
 */

/** The fields of the date, in the zone, with English names and a 24-hour clock. */
const fieldFormats = new Map<string, Intl.DateTimeFormat>();
/** Short zone names, one formatter per (locale, zone). */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * ICU gives the short abbreviation (CEST, IST, AEDT, JST) only in a locale of the zone's region and a plain
 * `GMT+2` elsewhere, where Java gives the abbreviation in every locale: ask these locales in turn, take the
 * first real abbreviation.
 */
const ZONE_NAME_LOCALES = ['en-US', 'en-GB', 'en-IN', 'en-AU', 'en-NZ', 'ja-JP'] as const;

function fieldFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = fieldFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      year: 'numeric',
      hourCycle: 'h23',
    });
    fieldFormats.set(key, format);
  }
  return format;
}

function zoneName(date: Date, locale: string, timeZone: string | undefined): string {
  const key = `${locale} ${timeZone ?? ''}`;
  let format = zoneFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' });
    zoneFormats.set(key, format);
  }
  return format.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** `GMT+05:30`, Java's name for a zone without an abbreviation, from ICU's `GMT+5:30`. */
function javaOffsetName(icuName: string): string {
  const match = /^GMT([+-])(\d{1,2})(?::(\d{2}))?$/.exec(icuName);
  if (!match) return icuName;
  return `GMT${match[1]}${(match[2] as string).padStart(2, '0')}:${match[3] ?? '00'}`;
}

function abbreviation(date: Date, timeZone: string | undefined): string {
  let fallback = '';
  for (const locale of ZONE_NAME_LOCALES) {
    const name = zoneName(date, locale, timeZone);
    if (name !== '' && (name === 'GMT' || !name.startsWith('GMT'))) return name;
    if (fallback === '') fallback = name;
  }
  return javaOffsetName(fallback);
}

/**
 * `millis` (since the epoch) as `Date.toString()` in Java prints it, in `timeZone` (an IANA name; default: the
 * process's local zone, as the JVM uses).
 */
export function javaDateString(millis: number, timeZone?: string): string {
  const date = new Date(millis);
  const parts: Record<string, string> = {};
  for (const part of fieldFormat(timeZone).formatToParts(date)) parts[part.type] = part.value;
  return `${parts.weekday} ${parts.month} ${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${abbreviation(date, timeZone)} ${parts.year}`;
}
