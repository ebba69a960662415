/**
 * The catalogue as CKAN's dicts: packages (datasets), resources (their files), organisations (the agencies) and
 * licences, shaped as CKAN 2.10's `package_show`, `resource_show`, `organization_show` and `license_list` answer them,
 * so that a CKAN harvester imports them as it would another CKAN's. Names are CKAN's (the code in lower case); ids
 * are stable UUIDs derived from the code, the same on every instance and after every restart.
 */
import { createHash } from 'node:crypto';
import {
  AGENCIES,
  AGENCY_NAMES,
  AGENCY_NAMES_EN,
  DATA_GROUP_TITLES,
  DATA_GROUPS,
  DATASETS,
  groupsOf,
  type Agency,
  type DataGroup,
} from '../catalogue.js';
import {
  AGENCY_URLS,
  describePeriod,
  GDC_LICENCES,
  periodBounds,
  UPDATE_FREQUENCY,
  type Licence,
  type ReferencePeriod,
} from '../catalogue-metadata.js';
import type { DatasetFacts } from './dataset-facts.js';

type Json = Record<string, unknown>;

/** CKAN's API version 3 prefix; `/api/action/` (what ckanapi posts to) is the same API without the version. */
export const CKAN_ACTIONS_PATH = '/api/3/action/';

/** A dataset's CKAN name: lower-case letters, digits, - and _ (2 to 100 characters). */
export function ckanName(code: string): string {
  return code.toLowerCase();
}

// The namespace of this server's ids (a UUID v5 namespace of its own, fixed: ids must not change).
const NAMESPACE = Buffer.from('6b1d3f0e9a4c4e2b8d7f5a3c1e9b0d42', 'hex');

/** A name-based UUID (RFC 9562 version 5) for a thing of the catalogue, e.g. `package:ODS_COUNT_TEACHER_BY_YEAR`. */
export function stableId(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A time as CKAN writes it: ISO 8601 in UTC without the zone, to the microsecond. */
export function ckanDate(date: Date): string {
  return date.toISOString().replace(/Z$/, '000');
}

// The agencies' organisations were "created" when the catalogue first listed them: a fixed date, never the start.
const CATALOGUE_LISTED = new Date('2024-01-01T00:00:00Z');

/** An agency as CKAN's organisation dict; with its packages' count when given. */
export function ckanOrganization(agency: Agency, packageCount?: number): Json {
  const name = agency.toLowerCase();
  return {
    id: stableId(`organization:${agency}`),
    name,
    title: AGENCY_NAMES[agency],
    display_name: AGENCY_NAMES[agency],
    description: `${AGENCY_NAMES_EN[agency]} (${AGENCY_URLS[agency]})`,
    image_url: '',
    created: ckanDate(CATALOGUE_LISTED),
    is_organization: true,
    approval_status: 'approved',
    state: 'active',
    type: 'organization',
    ...(packageCount === undefined ? {} : { package_count: packageCount }),
  };
}

/** The organisation an id or name names (CKAN accepts either), or undefined. */
export function findAgency(idOrName: string): Agency | undefined {
  return AGENCIES.find(
    (agency) => agency.toLowerCase() === idOrName.toLowerCase() || stableId(`organization:${agency}`) === idOrName,
  );
}

/** How many datasets each agency publishes. */
export function packageCount(agency: Agency): number {
  return DATASETS.filter((entry) => entry.agency === agency).length;
}

const GROUP_DESCRIPTIONS: Readonly<Record<DataGroup, string>> = {
  TEACHERS: 'Teachers and education personnel',
  STUDENTS: 'Students',
  SCHOOLS: 'Schools and other education institutions',
  GRADUATES: 'Graduates',
};

/** A catalogue group as CKAN's group dict (a package sits in every group of `groupsOf`); with its count when given. */
export function ckanGroup(group: DataGroup, packageCount?: number): Json {
  return {
    id: stableId(`group:${group}`),
    name: group.toLowerCase(),
    title: DATA_GROUP_TITLES[group],
    display_name: DATA_GROUP_TITLES[group],
    description: GROUP_DESCRIPTIONS[group],
    image_display_url: '',
    created: ckanDate(CATALOGUE_LISTED),
    is_organization: false,
    approval_status: 'approved',
    state: 'active',
    type: 'group',
    ...(packageCount === undefined ? {} : { package_count: packageCount }),
  };
}

/** The group an id or name names, or undefined. */
export function findGroup(idOrName: string): DataGroup | undefined {
  return DATA_GROUPS.find(
    (group) => group.toLowerCase() === idOrName.toLowerCase() || stableId(`group:${group}`) === idOrName,
  );
}

/** How many datasets sit in each group. */
export function groupPackageCount(group: DataGroup): number {
  return DATASETS.filter((entry) => groupsOf(entry).includes(group)).length;
}

/** CKAN's `license_list`: the GDC licences, the configured one under its configured name and address. */
export function ckanLicences(configured: Licence): Json[] {
  return GDC_LICENCES.map((licence) => {
    const own = licence.id === configured.id;
    return {
      id: licence.id,
      title: own ? configured.name : licence.title,
      url: own ? configured.url : licence.url,
      status: 'active',
      maintainer: '',
      family: '',
      od_conformance: 'approved',
      osd_conformance: 'not reviewed',
      domain_content: true,
      domain_data: true,
      domain_software: false,
    };
  });
}

/** A dataset as CKAN's package_show answers it. */
/**
 * The GDC schema's temporal coverage: the Common-Era years of the records' academic years, or the day records with
 * no year field were read; nothing when they could not be read in time.
 */
function temporalCoverage(period: ReferencePeriod | undefined): Json {
  if (period === undefined) return {};
  const [start, end] = periodBounds(period);
  return { temporal_coverage_start: start, temporal_coverage_end: end };
}

export function ckanPackage(facts: DatasetFacts): Json {
  const created = facts.created === undefined ? null : ckanDate(facts.created);
  const modified = facts.modified === undefined ? null : ckanDate(facts.modified);
  const name = ckanName(facts.entry.code);
  const id = stableId(`package:${facts.entry.code}`);
  const organization = ckanOrganization(facts.entry.agency);
  return {
    id,
    name,
    title: facts.title,
    notes: `${facts.description}\n\n${facts.descriptionEn}`,
    url: facts.landingPage,
    version: null,
    type: 'dataset',
    state: 'active',
    private: false,
    isopen: true,
    license_id: facts.licence.id,
    license_title: facts.licence.name,
    license_url: facts.licence.url,
    author: facts.publisher.name,
    author_email: facts.contactEmail ?? null,
    maintainer: facts.publisher.name,
    maintainer_email: facts.contactEmail ?? null,
    owner_org: organization['id'],
    organization,
    metadata_created: created,
    metadata_modified: modified,
    tags: facts.keywords.map((keyword) => ({
      id: stableId(`tag:${keyword}`),
      name: keyword,
      display_name: keyword,
      state: 'active',
      vocabulary_id: null,
    })),
    num_tags: facts.keywords.length,
    // The package dict's group entries: CKAN gives them without the counts and dates of group_show.
    groups: groupsOf(facts.entry).map((group) => {
      const { id: groupId, name: groupName, title, display_name, description, image_display_url } = ckanGroup(group);
      return { id: groupId, name: groupName, title, display_name, description, image_display_url };
    }),
    // The GDC metadata schema's fields (data.go.th), as package fields.
    objective: 'เพื่อเผยแพร่สถิติการศึกษาแก่สาธารณะ (Public education statistics)',
    update_frequency_unit: 'ปี',
    update_frequency_interval: '1',
    geo_coverage: `${facts.coverage.th} (${facts.coverage.en})`,
    ...temporalCoverage(facts.period),
    data_language: 'ไทย',
    data_format: facts.distributions.map((distribution) => distribution.format),
    data_category: 'ข้อมูลสาธารณะ',
    data_classification: 'ข้อมูลสาธารณะ',
    relationships_as_subject: [],
    relationships_as_object: [],
    extras: [
      { key: 'title_en', value: facts.titleEn },
      { key: 'dataset_code', value: facts.entry.code },
      { key: 'update_frequency', value: UPDATE_FREQUENCY.en },
      { key: 'frequency', value: UPDATE_FREQUENCY.uri },
      { key: 'geographic_coverage', value: facts.coverage.geography },
      ...(facts.period === undefined ? [] : [{ key: 'reference_period', value: describePeriod(facts.period).en }]),
      ...(facts.apiUrl === undefined ? [] : [{ key: 'source_api', value: facts.apiUrl }]),
      ...facts.caveats.map((caveat, i) => ({ key: `caveat_${i + 1}`, value: caveat.en })),
    ],
    resources: facts.distributions.map((distribution, position) => ({
      id: stableId(`resource:${facts.entry.code}.${distribution.format}`),
      package_id: id,
      name: `${facts.entry.code}.${distribution.format.toLowerCase()}`,
      description: `${facts.titleEn} (${distribution.format})`,
      url: distribution.url,
      format: distribution.format,
      mimetype: distribution.mediaType,
      state: 'active',
      position,
      url_type: null,
      created,
      last_modified: modified,
      metadata_modified: modified,
    })),
    num_resources: facts.distributions.length,
  };
}
