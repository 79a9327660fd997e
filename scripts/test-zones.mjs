// One clock (ARCHITECTURE decision 16): every calendar day is counted in TIME_ZONE (Europe/Berlin
// in the tests), so the process's own TZ may change nothing. The test legs therefore run in two
// far-apart process time zones, a day apart: the unit and PGlite leg in UTC+14, the PostgreSQL leg
// (or, without one, the date-sensitive files alone) in UTC-8/-7. A calendar day that depended on
// the process's zone fails in one of them.
export const FIRST_ZONE = "Pacific/Kiritimati";
export const SECOND_ZONE = "America/Los_Angeles";
