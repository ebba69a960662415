import { describe, expect, it } from 'vitest';
import { BRAND, datasetDescription, datasetTitle, PAGE_HEADS, pageOfPath } from '../../src/portal/assets/page-heads.js';

// Each portal page's title, description and canonical path, as the server writes them and the browser sets them.

describe('page heads', () => {
  it('gives every page a title and description of its own in each language, search-engine sized', () => {
    for (const language of ['th', 'en'] as const) {
      const heads = Object.values(PAGE_HEADS).map((head) => head[language]);
      expect(new Set(heads.map((head) => head.title)).size).toBe(heads.length);
      expect(new Set(heads.map((head) => head.description)).size).toBe(heads.length);
      for (const head of heads) {
        expect(head.title).toContain(BRAND[language]);
        expect(head.description.length).toBeGreaterThanOrEqual(50);
        expect(head.description.length).toBeLessThanOrEqual(300);
      }
    }
  });

  it('knows the pages by their paths, with or without the last slash', () => {
    expect(pageOfPath('/portal/')).toBe('catalogue');
    expect(pageOfPath('/portal')).toBe('catalogue');
    expect(pageOfPath('/portal/developer/')).toBe('developer');
    expect(pageOfPath('/portal/operator')).toBe('operator');
    expect(pageOfPath('/portal/datasets/X')).toBeUndefined();
    for (const [name, head] of Object.entries(PAGE_HEADS)) expect(pageOfPath(head.path)).toBe(name);
  });

  it('names a dataset page by its title and code, and describes it with its publisher', () => {
    expect(datasetTitle('จำนวนครู', 'ODS_COUNT_TEACHER_BY_YEAR', 'th')).toBe(
      'จำนวนครู (ODS_COUNT_TEACHER_BY_YEAR) · พอร์ทัลข้อมูลสถิติการศึกษา',
    );
    expect(datasetDescription('Teachers', 'Ministry of Education', 'en')).toMatch(
      /^Teachers: open data from the Ministry of Education\./,
    );
  });
});
