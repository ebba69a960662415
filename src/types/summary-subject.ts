import { builder } from '../builder.js';
import { SUMMARY_SUBJECTS, SUMMARY_SUBJECT_TITLES, type SummarySubject as SummarySubjectValue } from '../catalogue.js';
import { describedValues } from './described-values.js';

const MEANINGS: Readonly<Record<SummarySubjectValue, string>> = {
  SCHOOLS: 'schools',
  PERSONNEL: 'education personnel',
  STUDENTS: 'students',
  GRADUATES: 'graduates',
};

export const SummarySubject = builder.enumType('SummarySubject', {
  description: 'เรื่องของข้อมูลสรุป: what a summary endpoint counts.',
  values: describedValues(SUMMARY_SUBJECTS, (subject) => `${SUMMARY_SUBJECT_TITLES[subject]}: ${MEANINGS[subject]}`),
});
