// A dataset's reference period in a few words, for the catalogue's coverage column: the academic years as the
// records write them (Buddhist Era, what filters take), or the day records with no year field were read. The dataset
// page shows the API's own sentence (ReferencePeriod.description); this is its short form. No imports: Node tests it.

/**
 * @typedef {{ firstYear: number | null, lastYear: number | null, asOf: string | null }} PeriodFacts
 */

/**
 * "พ.ศ. 2560–2567" / "2560–2567 B.E.", "ณ 2026-12-07" / "as of 2026-12-07"; '' when the period is not known.
 * @param {PeriodFacts | null | undefined} period
 * @param {'th' | 'en'} language
 * @returns {string}
 */
export function periodText(period, language) {
  if (period === null || period === undefined) return '';
  if (period.firstYear !== null && period.lastYear !== null) {
    const span =
      period.firstYear === period.lastYear ? String(period.firstYear) : `${period.firstYear}–${period.lastYear}`;
    return language === 'th' ? `พ.ศ. ${span}` : `${span} B.E.`;
  }
  if (period.asOf !== null) return language === 'th' ? `ณ ${period.asOf}` : `as of ${period.asOf}`;
  return '';
}
