import { describe, expect, it } from 'vitest';
import { chartSvg, SVG_WIDTH } from '../../src/portal/assets/chart-svg.js';
import { textWidth, wrapText } from '../../src/portal/assets/text-wrap.js';

// The exported chart's caption and source footer, in Node: every character of the source is on some line and no
// line is wider than the picture (the browser suite, portal-chart-export, measures the lines as Chromium draws them).

const ADDRESS =
  'https://edu-stats.example.go.th/portal/datasets/ODS_COUNT_TEACHER_BY_JURISDICTION?measure=TOTAL&by=JURISDICTION_NAME&where.ACADEMIC_YEAR=2567&where.PROVINCE_NAME=%E0%B9%80%E0%B8%8A%E0%B8%B5%E0%B8%A2%E0%B8%87%E0%B9%83%E0%B8%AB%E0%B8%A1%E0%B9%88';
const THAI =
  'ที่มา: จำนวนครูจำแนกตามสังกัด (ชุดข้อมูล ODS_COUNT_TEACHER_BY_JURISDICTION) เผยแพร่โดย สำนักงานคณะกรรมการการศึกษาขั้นพื้นฐาน กระทรวงศึกษาธิการ';

const tspans = (svg: string, className: string): string[] => {
  const block = new RegExp(`<text class="${className}"[^>]*>([\\s\\S]*?)</text>`).exec(svg)?.[1] ?? '';
  return [...block.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((match) => match[1] ?? '');
};
const unescape = (text: string): string =>
  text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));

describe('wrapText', () => {
  it('breaks an address without spaces inside it, and loses none of it', () => {
    const lines = wrapText(ADDRESS, 300, 12);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join('')).toBe(ADDRESS);
    for (const line of lines) expect(textWidth(line, 12)).toBeLessThanOrEqual(300);
  });

  it('breaks Thai at its spaces, and a phrase wider than a line without parting a mark from its consonant', () => {
    const lines = wrapText(THAI, 240, 12);
    expect(lines.join(' ').replace(/\s+/g, '')).toBe(THAI.replace(/\s+/g, ''));
    for (const line of lines) {
      expect(textWidth(line, 12)).toBeLessThanOrEqual(240);
      expect(line).not.toMatch(/^[\u0E31\u0E34-\u0E3A\u0E47-\u0E4E]/u);
    }
  });

  it('leaves a short line as it is', () => {
    expect(wrapText('Source: a dataset', 800, 12)).toEqual(['Source: a dataset']);
  });

  it('counts Thai marks above and below as no width', () => {
    expect(textWidth('กี่', 10)).toBe(textWidth('ก', 10));
  });
});

describe('chartSvg', () => {
  const chart = {
    caption: 'Teachers by Province, comparing Academic year (only Jurisdiction = สำนักงานคณะกรรมการการศึกษาขั้นพื้นฐาน)',
    categories: ['Chiang Mai', 'กรุงเทพมหานคร'],
    series: ['2566', '2567'],
    values: [
      [10, 12],
      [null, 30],
    ],
  };
  const footer = [
    THAI,
    'Licence: Open Government License - Thailand (https://data.go.th/pages/open-government-licence)',
    ADDRESS,
  ];

  it('carries the whole source under the chart, each line within the picture, and grows to hold them', () => {
    const svg = chartSvg(chart, footer, String);
    const lines = tspans(svg, 'source').map(unescape);
    expect(lines.join('')).toContain(ADDRESS);
    expect(lines.join(' ')).toContain('Open Government License - Thailand');
    for (const line of lines) expect(textWidth(line, 12) + 20).toBeLessThanOrEqual(SVG_WIDTH - 20);
    const height = Number(/height="(\d+)"/.exec(svg)?.[1]);
    const lastY = Math.max(...[...svg.matchAll(/<tspan x="\d+" y="(\d+)"/g)].map((match) => Number(match[1])));
    expect(lastY).toBeLessThan(height);
    const shorter = chartSvg(chart, ['Source: x'], String);
    expect(Number(/height="(\d+)"/.exec(shorter)?.[1])).toBeLessThan(height);
  });

  it('wraps a long caption instead of cutting it, and escapes what the data says', () => {
    const svg = chartSvg({ ...chart, caption: `${chart.caption} <script>` }, footer, String);
    const caption = tspans(svg, 'caption').map(unescape);
    expect(caption.length).toBeGreaterThan(1);
    expect(caption.join(' ')).toBe(`${chart.caption} <script>`);
    expect(svg).not.toContain('<script>');
  });
});
