/**
 * CKAN's action API, as far as a harvester (data.go.th runs CKAN, and its CKAN harvester reads other CKANs) needs it:
 * `package_list` and `package_show`, each in CKAN's envelope `{ help, success, result }`, and CKAN's own error
 * envelope for an unknown package. Package names are CKAN's: the code in lower case.
 */
import { UPDATE_FREQUENCY } from '../catalogue-metadata.js';
import type { DatasetFacts } from './dataset-facts.js';

export const CKAN_ACTIONS_PATH = '/api/3/action/';

/** A dataset's CKAN name: lower-case letters, digits, - and _ (2 to 100 characters). */
export function ckanName(code: string): string {
  return code.toLowerCase();
}

export function ckanEnvelope(origin: string, action: string, result: unknown): Record<string, unknown> {
  return { help: `${origin}${CKAN_ACTIONS_PATH}help_show?name=${action}`, success: true, result };
}

export function ckanNotFound(origin: string, action: string, message: string): Record<string, unknown> {
  return {
    help: `${origin}${CKAN_ACTIONS_PATH}help_show?name=${action}`,
    success: false,
    error: { __type: 'Not Found Error', message },
  };
}

/** A dataset as CKAN's package_show answers it. */
export function ckanPackage(facts: DatasetFacts): Record<string, unknown> {
  const modified = facts.modified?.toISOString().replace(/Z$/, '');
  const name = ckanName(facts.entry.code);
  return {
    id: name,
    name,
    title: facts.title,
    notes: `${facts.description}\n\n${facts.descriptionEn}`,
    url: facts.landingPage,
    type: 'dataset',
    state: 'active',
    private: false,
    license_id: 'other-open',
    license_title: facts.licence.name,
    license_url: facts.licence.url,
    author: facts.publisher.name,
    maintainer: facts.publisher.name,
    maintainer_email: facts.contactEmail ?? null,
    organization: {
      name: facts.entry.agency.toLowerCase(),
      title: facts.publisher.name,
      type: 'organization',
      is_organization: true,
    },
    metadata_modified: modified ?? null,
    tags: facts.keywords.map((keyword) => ({ name: keyword, display_name: keyword })),
    num_tags: facts.keywords.length,
    extras: [
      { key: 'title_en', value: facts.titleEn },
      { key: 'dataset_code', value: facts.entry.code },
      { key: 'update_frequency', value: UPDATE_FREQUENCY.en },
      { key: 'frequency', value: UPDATE_FREQUENCY.uri },
      ...(facts.apiUrl === undefined ? [] : [{ key: 'source_api', value: facts.apiUrl }]),
      ...facts.caveats.map((caveat, i) => ({ key: `caveat_${i + 1}`, value: caveat.en })),
    ],
    resources: facts.distributions.map((distribution) => ({
      id: `${name}-${distribution.format.toLowerCase()}`,
      package_id: name,
      name: `${facts.entry.code}.${distribution.format.toLowerCase()}`,
      url: distribution.url,
      format: distribution.format,
      mimetype: distribution.mediaType,
      state: 'active',
      ...(modified === undefined ? {} : { last_modified: modified }),
    })),
    num_resources: facts.distributions.length,
  };
}
