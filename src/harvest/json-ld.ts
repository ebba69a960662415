/**
 * The datasets as linked data: a DCAT-AP catalogue (GET /catalog.jsonld) for harvesters, and a schema.org `Dataset`
 * for each dataset page, which search engines read from its `<script type="application/ld+json">`.
 */
import {
  DATA_GO_TH_CATEGORY,
  describePeriod,
  EDUCATION_THEME,
  FILE_TYPE_IRIS,
  periodBounds,
  UPDATE_FREQUENCY,
  type Place,
  type ReferencePeriod,
} from '../catalogue-metadata.js';
import { citationOf } from './citation.js';
import type { DatasetFacts } from './dataset-facts.js';

const DCAT_CONTEXT = {
  dcat: 'http://www.w3.org/ns/dcat#',
  dct: 'http://purl.org/dc/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  vcard: 'http://www.w3.org/2006/vcard/ns#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  skos: 'http://www.w3.org/2004/02/skos/core#',
} as const;

const thaiAndEnglish = (th: string, en: string) => [
  { '@value': th, '@language': 'th' },
  { '@value': en, '@language': 'en' },
];

/** DCAT-AP's period of time: its start and end as xsd:gYear (academic years) or xsd:date (as of a day). */
function dcatPeriod(period: ReferencePeriod): Record<string, unknown> {
  const [start, end] = periodBounds(period);
  const type = period.kind === 'YEARS' ? 'xsd:gYear' : 'xsd:date';
  const words = describePeriod(period);
  return {
    '@type': 'dct:PeriodOfTime',
    'dcat:startDate': { '@value': start, '@type': type },
    'dcat:endDate': { '@value': end, '@type': type },
    'skos:prefLabel': thaiAndEnglish(words.th, words.en),
  };
}

/**
 * A place as a dct:Location: the country by the EU vocabulary's IRI; a province, which no vocabulary of DCAT-AP's names,
 * by its ISO 3166-2 code. Labels are the place's names only: the country's node is shared by every dataset, so what
 * a dataset covers of it is said in the dataset's description.
 */
function dcatLocation(place: Place): Record<string, unknown> {
  return {
    ...(place.iri === undefined ? {} : { '@id': place.iri }),
    '@type': 'dct:Location',
    'dct:identifier': place.iso,
    'skos:prefLabel': thaiAndEnglish(place.th, place.en),
  };
}

/** DCAT-AP's contact point (a vCard): the agency, and the address DATASET_CONTACT_EMAIL gives. */
function dcatContact(facts: DatasetFacts): Record<string, unknown> {
  return {
    '@type': 'vcard:Organization',
    'vcard:fn': facts.publisher.nameEn,
    'vcard:organization-name': thaiAndEnglish(facts.publisher.name, facts.publisher.nameEn),
    'vcard:hasURL': { '@id': facts.publisher.url },
    ...(facts.contactEmail === undefined ? {} : { 'vcard:hasEmail': { '@id': `mailto:${facts.contactEmail}` } }),
  };
}

function dcatDataset(facts: DatasetFacts): Record<string, unknown> {
  return {
    '@id': facts.landingPage,
    '@type': 'dcat:Dataset',
    'dct:identifier': facts.entry.code,
    'dct:title': thaiAndEnglish(facts.title, facts.titleEn),
    'dct:description': thaiAndEnglish(facts.description, facts.descriptionEn),
    'dct:publisher': {
      '@id': facts.publisher.url,
      '@type': 'foaf:Agent',
      'foaf:name': thaiAndEnglish(facts.publisher.name, facts.publisher.nameEn),
    },
    'dcat:contactPoint': dcatContact(facts),
    'dcat:keyword': facts.keywords,
    'dcat:theme': [
      { '@id': EDUCATION_THEME },
      {
        '@type': 'skos:Concept',
        'skos:prefLabel': thaiAndEnglish(DATA_GO_TH_CATEGORY.th, DATA_GO_TH_CATEGORY.en),
        'skos:inScheme': { '@id': 'https://data.go.th/group' },
      },
    ],
    'dct:spatial': facts.places.map(dcatLocation),
    ...(facts.period === undefined ? {} : { 'dct:temporal': dcatPeriod(facts.period) }),
    'dct:accrualPeriodicity': { '@id': UPDATE_FREQUENCY.uri },
    'dct:license': { '@id': facts.licence.url },
    'dcat:landingPage': { '@id': facts.landingPage },
    'dct:language': { '@id': 'http://publications.europa.eu/resource/authority/language/THA' },
    ...(facts.created === undefined
      ? {}
      : { 'dct:issued': { '@value': facts.created.toISOString(), '@type': 'xsd:dateTime' } }),
    ...(facts.modified === undefined
      ? {}
      : { 'dct:modified': { '@value': facts.modified.toISOString(), '@type': 'xsd:dateTime' } }),
    'dcat:distribution': facts.distributions.map((distribution) => ({
      '@id': distribution.url,
      '@type': 'dcat:Distribution',
      'dct:title': `${facts.entry.code} (${distribution.format})`,
      'dcat:accessURL': { '@id': distribution.url },
      'dcat:downloadURL': { '@id': distribution.url },
      'dcat:mediaType': { '@id': `http://www.iana.org/assignments/media-types/${distribution.mediaType}` },
      'dct:format': { '@id': FILE_TYPE_IRIS[distribution.format] },
      ...(distribution.byteSize === undefined
        ? {}
        : { 'dcat:byteSize': { '@value': String(distribution.byteSize), '@type': 'xsd:nonNegativeInteger' } }),
      'dct:license': { '@id': facts.licence.url },
    })),
  };
}

/** The DCAT-AP catalogue of every dataset, in JSON-LD. */
export function dcatCatalogue(origin: string, datasets: readonly DatasetFacts[]): Record<string, unknown> {
  const licence = datasets[0]?.licence;
  return {
    '@context': DCAT_CONTEXT,
    '@id': `${origin}/catalog.jsonld`,
    '@type': 'dcat:Catalog',
    'dct:title': thaiAndEnglish('สถิติการศึกษาแบบเปิด', 'Education open-data statistics'),
    'dct:description': thaiAndEnglish(
      'ชุดข้อมูลสถิติการศึกษาของกระทรวงศึกษาธิการ: ครู นักเรียน สถานศึกษา และผู้สำเร็จการศึกษา',
      "The Ministry of Education's education statistics: teachers, students, schools and graduates.",
    ),
    'dct:publisher': {
      '@id': 'https://www.moe.go.th/',
      '@type': 'foaf:Agent',
      'foaf:name': thaiAndEnglish('กระทรวงศึกษาธิการ', 'Ministry of Education'),
    },
    ...(licence === undefined ? {} : { 'dct:license': { '@id': licence.url } }),
    'foaf:homepage': { '@id': `${origin}/portal/` },
    'dcat:dataset': datasets.map(dcatDataset),
  };
}

function schemaOrgPeriod(period: ReferencePeriod): string {
  const [start, end] = periodBounds(period);
  return start === end ? start : `${start}/${end}`;
}

/**
 * The narrowest place a dataset's records lie in, with what they cover of it in words: Thailand, or Bangkok within
 * Thailand.
 */
function schemaOrgPlace(facts: DatasetFacts, thai: boolean): Record<string, unknown> {
  const name = (place: Place): string => (thai ? place.th : place.en);
  const [country, ...within] = facts.places;
  const narrowest = within.at(-1) ?? country;
  return {
    '@type': narrowest === country ? 'Country' : 'AdministrativeArea',
    ...(narrowest === undefined ? {} : { name: name(narrowest), identifier: narrowest.iso }),
    description: thai ? facts.coverage.th : facts.coverage.en,
    ...(narrowest === country || country === undefined
      ? {}
      : { containedInPlace: { '@type': 'Country', name: name(country), identifier: country.iso } }),
  };
}

/** A dataset page's schema.org `Dataset` (what Google's dataset search reads), in the page's language. */
export function schemaOrgDataset(facts: DatasetFacts, language: 'th' | 'en'): Record<string, unknown> {
  const thai = language === 'th';
  return {
    '@context': 'https://schema.org/',
    '@type': 'Dataset',
    '@id': facts.landingPage,
    name: thai ? facts.title : facts.titleEn,
    alternateName: thai ? [facts.titleEn, facts.entry.code] : [facts.title, facts.entry.code],
    description: thai ? facts.description : facts.descriptionEn,
    url: facts.landingPage,
    identifier: facts.entry.code,
    keywords: facts.keywords,
    // ISO 8601: a year interval ("2017/2024") or one day.
    ...(facts.period === undefined ? {} : { temporalCoverage: schemaOrgPeriod(facts.period) }),
    spatialCoverage: schemaOrgPlace(facts, thai),
    variableMeasured: facts.variables.map((variable) => ({
      '@type': 'PropertyValue',
      name: variable.key,
      alternateName: thai ? [variable.label, variable.labelEn] : [variable.labelEn, variable.label],
      description: [thai ? variable.label : variable.labelEn, variable.description].filter(Boolean).join(': '),
      ...(variable.unit === undefined ? {} : { unitText: variable.unit }),
    })),
    includedInDataCatalog: {
      '@type': 'DataCatalog',
      name: thai ? 'สถิติการศึกษาแบบเปิด' : 'Education open-data statistics',
      url: facts.landingPage.replace(/\/portal\/datasets\/.*$/, '/portal/'),
    },
    citation: citationOf(facts),
    inLanguage: 'th',
    isAccessibleForFree: true,
    license: facts.licence.url,
    creator: { '@type': 'GovernmentOrganization', name: facts.publisher.name, url: facts.publisher.url },
    publisher: { '@type': 'GovernmentOrganization', name: facts.publisher.name, url: facts.publisher.url },
    ...(facts.contactEmail === undefined
      ? {}
      : { maintainer: { '@type': 'ContactPoint', email: facts.contactEmail, contactType: 'data' } }),
    ...(facts.created === undefined ? {} : { datePublished: facts.created.toISOString() }),
    ...(facts.modified === undefined ? {} : { dateModified: facts.modified.toISOString() }),
    distribution: facts.distributions.map((distribution) => ({
      '@type': 'DataDownload',
      encodingFormat: distribution.mediaType,
      contentUrl: distribution.url,
      ...(distribution.byteSize === undefined ? {} : { contentSize: `${distribution.byteSize} B` }),
    })),
  };
}

/** JSON for inside an HTML `<script>` element: nothing in it can close the element or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
