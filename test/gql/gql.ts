/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n        mutation R($id: ID!) {\n          reviewUseRequest(input: { id: $id, decision: APPROVE }) {\n            useRequest {\n              id\n            }\n          }\n        }\n      ": typeof types.RDocument,
    "\n  mutation KeyRotationRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n      }\n    }\n  }\n": typeof types.KeyRotationRegisterDocument,
    "\n  query KeyRotationMe {\n    me {\n      id\n      name\n    }\n  }\n": typeof types.KeyRotationMeDocument,
    "\n  mutation KeyRotationRotate($graceS: Int!) {\n    rotateApiKey(input: { graceS: $graceS }) {\n      apiKey\n      previousKeysExpireAt\n      client {\n        id\n      }\n    }\n  }\n": typeof types.KeyRotationRotateDocument,
    "\n  query ClientCatalogue {\n    datasets {\n      id\n      code\n      title\n    }\n    summaryEndpoints {\n      id\n      endpointId\n      name\n      status\n    }\n  }\n": typeof types.ClientCatalogueDocument,
    "\n  query ClientNode($id: ID!) {\n    node(id: $id) {\n      id\n      ... on Dataset {\n        titleEn\n      }\n    }\n  }\n": typeof types.ClientNodeDocument,
    "\n  query ClientOneDataset($code: DatasetCode!) {\n    dataset(code: $code) {\n      id\n      code\n      title\n    }\n  }\n": typeof types.ClientOneDatasetDocument,
    "\n  query ClientRecords($after: String) {\n    dataset(code: ODS_COUNT_TEACHER_BY_JURISDICTION) {\n      id\n      records(first: 4, after: $after, orderBy: [{ field: \"TOTAL\", direction: DESC }]) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      fields {\n        name\n        types\n      }\n    }\n  }\n": typeof types.ClientRecordsDocument,
    "\n  query ClientTwoPayloads {\n    teachers: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      id\n      payload(query: { ACADEMIC_YEAR: \"2566\" })\n    }\n    graduates: dataset(code: ODS_COUNT_GRADUATE_BY_YEAR) {\n      id\n      payload\n    }\n  }\n": typeof types.ClientTwoPayloadsDocument,
    "\n  mutation ClientRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n      }\n    }\n  }\n": typeof types.ClientRegisterDocument,
    "\n  mutation ClientRequestUse($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        id\n        status\n        history {\n          from\n          to\n        }\n      }\n    }\n  }\n": typeof types.ClientRequestUseDocument,
    "\n  mutation ClientReview($input: ReviewUseRequestInput!) {\n    reviewUseRequest(input: $input) {\n      useRequest {\n        id\n        status\n        statusLabel\n      }\n    }\n  }\n": typeof types.ClientReviewDocument,
    "\n  query ClientSummary($id: Int!, $input: JSONObject) {\n    summaryEndpoint(endpointId: $id) {\n      id\n      status\n      payload(input: $input)\n    }\n  }\n": typeof types.ClientSummaryDocument,
    "\n  query DatasetMetadata($code: DatasetCode!) {\n    dataset(code: $code) {\n      metadata {\n        descriptiveTitle\n        licence {\n          name\n          url\n        }\n        publisher\n        publisherUrl\n        contactEmail\n        updateFrequency\n        caveats\n        keywords\n        landingPath\n        downloads {\n          format\n          path\n        }\n      }\n      lastFetched {\n        version\n        fetchedAt\n      }\n      fields {\n        name\n        definition {\n          label\n          labelEn\n          unit\n        }\n      }\n    }\n  }\n": typeof types.DatasetMetadataDocument,
    "\n  query DatasetsCoverage {\n    datasets {\n      code\n      metadata {\n        coverage {\n          geography\n          description\n          referencePeriod {\n            kind\n            firstYear\n            lastYear\n            firstYearCe\n            lastYearCe\n            asOf\n            description\n          }\n        }\n      }\n    }\n  }\n": typeof types.DatasetsCoverageDocument,
    "\n  query TeachersGroup {\n    datasets(group: TEACHERS) {\n      code\n      group\n      groups\n    }\n  }\n": typeof types.TeachersGroupDocument,
    "\n  query DownloadCount($code: DatasetCode!, $where: [RecordFilter!], $query: JSONObject) {\n    dataset(code: $code) {\n      recordCount(where: $where, query: $query)\n    }\n  }\n": typeof types.DownloadCountDocument,
    "\n  query DownloadRecords($code: DatasetCode!, $where: [RecordFilter!], $orderBy: [RecordOrder!]) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, first: 500) {\n        edges {\n          node\n        }\n      }\n    }\n  }\n": typeof types.DownloadRecordsDocument,
    "\n  query Labels {\n    summaryEndpoint(endpointId: 83) {\n      status\n      statusLabel\n    }\n    dataset(code: ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER) {\n      agencyName\n      agencyNameEn\n    }\n  }\n": typeof types.LabelsDocument,
    "\n  mutation AbuseRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n    }\n  }\n": typeof types.AbuseRegisterDocument,
    "\n  mutation AbuseRegisterFour($input: RegisterClientInput!) {\n    a: registerClient(input: $input) {\n      apiKey\n    }\n    b: registerClient(input: $input) {\n      apiKey\n    }\n    c: registerClient(input: $input) {\n      apiKey\n    }\n    d: registerClient(input: $input) {\n      apiKey\n    }\n  }\n": typeof types.AbuseRegisterFourDocument,
    "\n  query AbuseCatalogue {\n    datasets {\n      no\n    }\n  }\n": typeof types.AbuseCatalogueDocument,
    "\n  query Teachers {\n    dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n  }\n": typeof types.TeachersDocument,
    "\n  query TwoBig {\n    dup: dataset(code: V10_DUPWITH) {\n      payload\n    }\n    schools: dataset(code: MV_DWH_SCHOOL1) {\n      payload\n    }\n  }\n": typeof types.TwoBigDocument,
    "\n  query Catalogue {\n    datasets {\n      no\n      code\n      title\n      titleEn\n      group\n      agency\n      agencyName\n      method\n      apiUrl\n    }\n    summaryEndpoints {\n      endpointId\n      name\n      subject\n      title\n      method\n      apiUrl\n      version\n      status\n      statusLabel\n    }\n  }\n": typeof types.CatalogueDocument,
    "\n  query FilteredDatasets($group: DataGroup, $agency: Agency) {\n    datasets(group: $group, agency: $agency) {\n      no\n    }\n  }\n": typeof types.FilteredDatasetsDocument,
    "\n  query OneDataset($code: DatasetCode!) {\n    dataset(code: $code) {\n      no\n      code\n      titleEn\n    }\n  }\n": typeof types.OneDatasetDocument,
    "\n  query OneSummaryEndpoint($id: Int!) {\n    summaryEndpoint(endpointId: $id) {\n      id\n      endpointId\n      name\n    }\n  }\n": typeof types.OneSummaryEndpointDocument,
    "\n  query TwoDatasets {\n    failing: dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {\n      code\n      payload\n    }\n    healthy: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      code\n      payload\n    }\n  }\n": typeof types.TwoDatasetsDocument,
    "\n  query SummaryPayload {\n    summaryEndpoint(endpointId: 84) {\n      status\n      payload(input: { ACADEMIC_YEAR: \"2566\" })\n    }\n  }\n": typeof types.SummaryPayloadDocument,
    "\n  query DatasetIds {\n    datasets {\n      id\n      code\n    }\n  }\n": typeof types.DatasetIdsDocument,
    "\n  query NodeById($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Dataset {\n        code\n        title\n      }\n      ... on Client {\n        name\n      }\n      ... on UseRequest {\n        status\n        client {\n          id\n        }\n      }\n    }\n  }\n": typeof types.NodeByIdDocument,
    "\n  query NodesByIds($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      __typename\n      id\n    }\n  }\n": typeof types.NodesByIdsDocument,
    "\n  mutation RegisterForNodes($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n      }\n    }\n  }\n": typeof types.RegisterForNodesDocument,
    "\n  mutation AskForNodes($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        id\n      }\n    }\n  }\n": typeof types.AskForNodesDocument,
    "\n  query BothUpstreamsShape($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      recordsPath(query: $query)\n      recordCount(query: $query)\n      fields(query: $query) {\n        name\n        types\n        numericStrings\n      }\n    }\n  }\n": typeof types.BothUpstreamsShapeDocument,
    "\n  query BothUpstreamsSums($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n": typeof types.BothUpstreamsSumsDocument,
    "\n  query BothUpstreamsTypedByYear {\n    typedRecords {\n      odsCountTeacherByYear {\n        aggregate(groupBy: [academicYear], sum: [total], where: { academicYear: { gte: \"2565\" } }) {\n          academicYear\n          total\n          count\n        }\n        rows(orderBy: [{ field: academicYear, direction: DESC }], first: 2) {\n          totalCount\n          nodes {\n            academicYear\n            male\n            female\n            total\n          }\n        }\n      }\n    }\n  }\n": typeof types.BothUpstreamsTypedByYearDocument,
    "\n  query Payload($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      payload(query: $query)\n    }\n  }\n": typeof types.PayloadDocument,
    "\n  query AllPayloads {\n    datasets {\n      code\n      payload\n    }\n  }\n": typeof types.AllPayloadsDocument,
    "\n  query AliasedPayloads {\n    datasets {\n      code\n      payload\n    }\n    a: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n    b: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n    y1: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload(query: { ACADEMIC_YEAR: \"2566\", LIMIT: 5 })\n    }\n    y2: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      again: payload(query: { LIMIT: \"5\", ACADEMIC_YEAR: \"2566\" })\n    }\n    y3: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload(query: { ACADEMIC_YEAR: \"2565\" })\n    }\n  }\n": typeof types.AliasedPayloadsDocument,
    "\n  query HardeningPage(\n    $code: DatasetCode!\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          node\n        }\n        pageInfo {\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.HardeningPageDocument,
    "\n  query HardeningCount($code: DatasetCode!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      recordCount(where: $where)\n    }\n  }\n": typeof types.HardeningCountDocument,
    "\n  query HardeningAggregate($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n": typeof types.HardeningAggregateDocument,
    "\n  query HardeningWorst(\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $groupBy: [String!]!\n    $sum: [String!]!\n  ) {\n    dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {\n      recordCount(where: $where)\n      records(where: $where, orderBy: $orderBy, select: $select, first: 500) {\n        totalCount\n        edges {\n          node\n        }\n      }\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n": typeof types.HardeningWorstDocument,
    "\n  query HardeningSeventeenPages {\n    dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {\n      a0: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a1: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a2: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a3: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a4: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a5: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a6: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a7: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a8: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a9: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a10: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a11: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a12: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a13: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a14: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a15: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a16: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n    }\n  }\n": typeof types.HardeningSeventeenPagesDocument,
    "\n  query RecordsPage(\n    $code: DatasetCode!\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      recordCount(where: $where)\n    }\n  }\n": typeof types.RecordsPageDocument,
    "\n  query RecordsPageAndRows(\n    $code: DatasetCode!\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n      }\n      rows(orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node {\n            values\n          }\n        }\n        nodes {\n          values\n        }\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.RecordsPageAndRowsDocument,
    "\n  query RecordsShape($code: DatasetCode!) {\n    dataset(code: $code) {\n      recordsPath\n      shapeFingerprint\n      fields {\n        name\n        types\n        nullable\n        examples\n        distinctCount\n        min\n        max\n        numericStrings\n      }\n    }\n  }\n": typeof types.RecordsShapeDocument,
    "\n  query RecordsSums($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      payload\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n": typeof types.RecordsSumsDocument,
    "\n  query PayloadAndRecords($code: DatasetCode!, $first: Int) {\n    dataset(code: $code) {\n      payload\n      records(first: $first) {\n        totalCount\n      }\n      recordsPath\n    }\n  }\n": typeof types.PayloadAndRecordsDocument,
    "\n  query WarmPayload($code: DatasetCode!) {\n    dataset(code: $code) {\n      code\n      payload\n    }\n  }\n": typeof types.WarmPayloadDocument,
    "\n  query PayloadWithQuery($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      payload(query: $query)\n    }\n  }\n": typeof types.PayloadWithQueryDocument,
    "\n  query CatalogueStatus {\n    summaryEndpoints {\n      endpointId\n      status\n    }\n  }\n": typeof types.CatalogueStatusDocument,
    "\n  query AnonymousSummary {\n    summaryEndpoint(endpointId: 85) {\n      payload(input: { ACADEMIC_YEAR: \"2566\" })\n    }\n  }\n": typeof types.AnonymousSummaryDocument,
    "\n  query StaleCursor {\n    dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) {\n      records(first: 1, after: \"not-a-cursor\") {\n        totalCount\n      }\n    }\n  }\n": typeof types.StaleCursorDocument,
    "\n  mutation RegisterForCacheTest($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n    }\n  }\n": typeof types.RegisterForCacheTestDocument,
    "\n  query CountOtherMajors($other: JSON) {\n    dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) {\n      recordCount(where: [{ field: \"MAJOR\", ne: $other }])\n    }\n  }\n": typeof types.CountOtherMajorsDocument,
    "\n  query TypedTeachersDrift($first: Int) {\n    typedRecords {\n      odsCountTeacherByYear {\n        rows(first: $first, orderBy: [{ field: academicYear }]) {\n          totalCount\n          nodes {\n            academicYear\n            male\n            female\n            total\n            node\n          }\n        }\n      }\n    }\n  }\n": typeof types.TypedTeachersDriftDocument,
    "\n  query UntypedTeachersDrift {\n    dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      records(first: 1) {\n        totalCount\n      }\n    }\n  }\n": typeof types.UntypedTeachersDriftDocument,
    "\n  query SummaryInputs {\n    summaryEndpoints {\n      endpointId\n      titleEn\n      inputs {\n        key\n        description\n        example\n      }\n    }\n  }\n": typeof types.SummaryInputsDocument,
    "\n  query Schools($input: JSONObject) {\n    summaryEndpoint(endpointId: 83) {\n      payload(input: $input)\n    }\n  }\n": typeof types.SchoolsDocument,
    "\n  query TwoReads($guessed: JSONObject, $known: JSONObject) {\n    guessed: summaryEndpoint(endpointId: 83) {\n      payload(input: $guessed)\n    }\n    known: summaryEndpoint(endpointId: 83) {\n      payload(input: $known)\n    }\n  }\n": typeof types.TwoReadsDocument,
    "\n  mutation Register($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n        contactEmail\n        createdAt\n      }\n    }\n  }\n": typeof types.RegisterDocument,
    "\n  mutation RegisterAndRead($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        history {\n          kind\n          actor\n        }\n        useRequests {\n          id\n        }\n      }\n    }\n  }\n": typeof types.RegisterAndReadDocument,
    "\n  query Me {\n    me {\n      id\n      name\n    }\n  }\n": typeof types.MeDocument,
    "\n  query Statuses {\n    summaryEndpoints {\n      endpointId\n      status\n      statusLabel\n    }\n  }\n": typeof types.StatusesDocument,
    "\n  query SummaryPayload84($input: JSONObject) {\n    summaryEndpoint(endpointId: 84) {\n      status\n      statusLabel\n      payload(input: $input)\n    }\n  }\n": typeof types.SummaryPayload84Document,
    "\n  fragment UseRequestFields on UseRequest {\n    id\n    status\n    statusLabel\n    purpose\n    note\n    createdAt\n    updatedAt\n    endpoint {\n      id\n      name\n    }\n    client {\n      id\n      name\n    }\n    history {\n      from\n      to\n      actor\n      note\n      at\n    }\n  }\n": typeof types.UseRequestFieldsFragmentDoc,
    "\n  mutation Ask($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n": typeof types.AskDocument,
    "\n  mutation Review($input: ReviewUseRequestInput!) {\n    reviewUseRequest(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n": typeof types.ReviewDocument,
    "\n  mutation Revoke($input: RevokeUseRequestInput!) {\n    revokeUseRequest(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n": typeof types.RevokeDocument,
    "\n  query Mine {\n    myUseRequests {\n      ...UseRequestFields\n    }\n  }\n": typeof types.MineDocument,
    "\n  query All($status: UseRequestStatus) {\n    useRequests(status: $status) {\n      ...UseRequestFields\n    }\n  }\n": typeof types.AllDocument,
};
const documents: Documents = {
    "\n        mutation R($id: ID!) {\n          reviewUseRequest(input: { id: $id, decision: APPROVE }) {\n            useRequest {\n              id\n            }\n          }\n        }\n      ": types.RDocument,
    "\n  mutation KeyRotationRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n      }\n    }\n  }\n": types.KeyRotationRegisterDocument,
    "\n  query KeyRotationMe {\n    me {\n      id\n      name\n    }\n  }\n": types.KeyRotationMeDocument,
    "\n  mutation KeyRotationRotate($graceS: Int!) {\n    rotateApiKey(input: { graceS: $graceS }) {\n      apiKey\n      previousKeysExpireAt\n      client {\n        id\n      }\n    }\n  }\n": types.KeyRotationRotateDocument,
    "\n  query ClientCatalogue {\n    datasets {\n      id\n      code\n      title\n    }\n    summaryEndpoints {\n      id\n      endpointId\n      name\n      status\n    }\n  }\n": types.ClientCatalogueDocument,
    "\n  query ClientNode($id: ID!) {\n    node(id: $id) {\n      id\n      ... on Dataset {\n        titleEn\n      }\n    }\n  }\n": types.ClientNodeDocument,
    "\n  query ClientOneDataset($code: DatasetCode!) {\n    dataset(code: $code) {\n      id\n      code\n      title\n    }\n  }\n": types.ClientOneDatasetDocument,
    "\n  query ClientRecords($after: String) {\n    dataset(code: ODS_COUNT_TEACHER_BY_JURISDICTION) {\n      id\n      records(first: 4, after: $after, orderBy: [{ field: \"TOTAL\", direction: DESC }]) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      fields {\n        name\n        types\n      }\n    }\n  }\n": types.ClientRecordsDocument,
    "\n  query ClientTwoPayloads {\n    teachers: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      id\n      payload(query: { ACADEMIC_YEAR: \"2566\" })\n    }\n    graduates: dataset(code: ODS_COUNT_GRADUATE_BY_YEAR) {\n      id\n      payload\n    }\n  }\n": types.ClientTwoPayloadsDocument,
    "\n  mutation ClientRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n      }\n    }\n  }\n": types.ClientRegisterDocument,
    "\n  mutation ClientRequestUse($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        id\n        status\n        history {\n          from\n          to\n        }\n      }\n    }\n  }\n": types.ClientRequestUseDocument,
    "\n  mutation ClientReview($input: ReviewUseRequestInput!) {\n    reviewUseRequest(input: $input) {\n      useRequest {\n        id\n        status\n        statusLabel\n      }\n    }\n  }\n": types.ClientReviewDocument,
    "\n  query ClientSummary($id: Int!, $input: JSONObject) {\n    summaryEndpoint(endpointId: $id) {\n      id\n      status\n      payload(input: $input)\n    }\n  }\n": types.ClientSummaryDocument,
    "\n  query DatasetMetadata($code: DatasetCode!) {\n    dataset(code: $code) {\n      metadata {\n        descriptiveTitle\n        licence {\n          name\n          url\n        }\n        publisher\n        publisherUrl\n        contactEmail\n        updateFrequency\n        caveats\n        keywords\n        landingPath\n        downloads {\n          format\n          path\n        }\n      }\n      lastFetched {\n        version\n        fetchedAt\n      }\n      fields {\n        name\n        definition {\n          label\n          labelEn\n          unit\n        }\n      }\n    }\n  }\n": types.DatasetMetadataDocument,
    "\n  query DatasetsCoverage {\n    datasets {\n      code\n      metadata {\n        coverage {\n          geography\n          description\n          referencePeriod {\n            kind\n            firstYear\n            lastYear\n            firstYearCe\n            lastYearCe\n            asOf\n            description\n          }\n        }\n      }\n    }\n  }\n": types.DatasetsCoverageDocument,
    "\n  query TeachersGroup {\n    datasets(group: TEACHERS) {\n      code\n      group\n      groups\n    }\n  }\n": types.TeachersGroupDocument,
    "\n  query DownloadCount($code: DatasetCode!, $where: [RecordFilter!], $query: JSONObject) {\n    dataset(code: $code) {\n      recordCount(where: $where, query: $query)\n    }\n  }\n": types.DownloadCountDocument,
    "\n  query DownloadRecords($code: DatasetCode!, $where: [RecordFilter!], $orderBy: [RecordOrder!]) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, first: 500) {\n        edges {\n          node\n        }\n      }\n    }\n  }\n": types.DownloadRecordsDocument,
    "\n  query Labels {\n    summaryEndpoint(endpointId: 83) {\n      status\n      statusLabel\n    }\n    dataset(code: ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER) {\n      agencyName\n      agencyNameEn\n    }\n  }\n": types.LabelsDocument,
    "\n  mutation AbuseRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n    }\n  }\n": types.AbuseRegisterDocument,
    "\n  mutation AbuseRegisterFour($input: RegisterClientInput!) {\n    a: registerClient(input: $input) {\n      apiKey\n    }\n    b: registerClient(input: $input) {\n      apiKey\n    }\n    c: registerClient(input: $input) {\n      apiKey\n    }\n    d: registerClient(input: $input) {\n      apiKey\n    }\n  }\n": types.AbuseRegisterFourDocument,
    "\n  query AbuseCatalogue {\n    datasets {\n      no\n    }\n  }\n": types.AbuseCatalogueDocument,
    "\n  query Teachers {\n    dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n  }\n": types.TeachersDocument,
    "\n  query TwoBig {\n    dup: dataset(code: V10_DUPWITH) {\n      payload\n    }\n    schools: dataset(code: MV_DWH_SCHOOL1) {\n      payload\n    }\n  }\n": types.TwoBigDocument,
    "\n  query Catalogue {\n    datasets {\n      no\n      code\n      title\n      titleEn\n      group\n      agency\n      agencyName\n      method\n      apiUrl\n    }\n    summaryEndpoints {\n      endpointId\n      name\n      subject\n      title\n      method\n      apiUrl\n      version\n      status\n      statusLabel\n    }\n  }\n": types.CatalogueDocument,
    "\n  query FilteredDatasets($group: DataGroup, $agency: Agency) {\n    datasets(group: $group, agency: $agency) {\n      no\n    }\n  }\n": types.FilteredDatasetsDocument,
    "\n  query OneDataset($code: DatasetCode!) {\n    dataset(code: $code) {\n      no\n      code\n      titleEn\n    }\n  }\n": types.OneDatasetDocument,
    "\n  query OneSummaryEndpoint($id: Int!) {\n    summaryEndpoint(endpointId: $id) {\n      id\n      endpointId\n      name\n    }\n  }\n": types.OneSummaryEndpointDocument,
    "\n  query TwoDatasets {\n    failing: dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {\n      code\n      payload\n    }\n    healthy: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      code\n      payload\n    }\n  }\n": types.TwoDatasetsDocument,
    "\n  query SummaryPayload {\n    summaryEndpoint(endpointId: 84) {\n      status\n      payload(input: { ACADEMIC_YEAR: \"2566\" })\n    }\n  }\n": types.SummaryPayloadDocument,
    "\n  query DatasetIds {\n    datasets {\n      id\n      code\n    }\n  }\n": types.DatasetIdsDocument,
    "\n  query NodeById($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Dataset {\n        code\n        title\n      }\n      ... on Client {\n        name\n      }\n      ... on UseRequest {\n        status\n        client {\n          id\n        }\n      }\n    }\n  }\n": types.NodeByIdDocument,
    "\n  query NodesByIds($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      __typename\n      id\n    }\n  }\n": types.NodesByIdsDocument,
    "\n  mutation RegisterForNodes($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n      }\n    }\n  }\n": types.RegisterForNodesDocument,
    "\n  mutation AskForNodes($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        id\n      }\n    }\n  }\n": types.AskForNodesDocument,
    "\n  query BothUpstreamsShape($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      recordsPath(query: $query)\n      recordCount(query: $query)\n      fields(query: $query) {\n        name\n        types\n        numericStrings\n      }\n    }\n  }\n": types.BothUpstreamsShapeDocument,
    "\n  query BothUpstreamsSums($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n": types.BothUpstreamsSumsDocument,
    "\n  query BothUpstreamsTypedByYear {\n    typedRecords {\n      odsCountTeacherByYear {\n        aggregate(groupBy: [academicYear], sum: [total], where: { academicYear: { gte: \"2565\" } }) {\n          academicYear\n          total\n          count\n        }\n        rows(orderBy: [{ field: academicYear, direction: DESC }], first: 2) {\n          totalCount\n          nodes {\n            academicYear\n            male\n            female\n            total\n          }\n        }\n      }\n    }\n  }\n": types.BothUpstreamsTypedByYearDocument,
    "\n  query Payload($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      payload(query: $query)\n    }\n  }\n": types.PayloadDocument,
    "\n  query AllPayloads {\n    datasets {\n      code\n      payload\n    }\n  }\n": types.AllPayloadsDocument,
    "\n  query AliasedPayloads {\n    datasets {\n      code\n      payload\n    }\n    a: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n    b: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n    y1: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload(query: { ACADEMIC_YEAR: \"2566\", LIMIT: 5 })\n    }\n    y2: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      again: payload(query: { LIMIT: \"5\", ACADEMIC_YEAR: \"2566\" })\n    }\n    y3: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload(query: { ACADEMIC_YEAR: \"2565\" })\n    }\n  }\n": types.AliasedPayloadsDocument,
    "\n  query HardeningPage(\n    $code: DatasetCode!\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          node\n        }\n        pageInfo {\n          endCursor\n        }\n      }\n    }\n  }\n": types.HardeningPageDocument,
    "\n  query HardeningCount($code: DatasetCode!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      recordCount(where: $where)\n    }\n  }\n": types.HardeningCountDocument,
    "\n  query HardeningAggregate($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n": types.HardeningAggregateDocument,
    "\n  query HardeningWorst(\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $groupBy: [String!]!\n    $sum: [String!]!\n  ) {\n    dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {\n      recordCount(where: $where)\n      records(where: $where, orderBy: $orderBy, select: $select, first: 500) {\n        totalCount\n        edges {\n          node\n        }\n      }\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n": types.HardeningWorstDocument,
    "\n  query HardeningSeventeenPages {\n    dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {\n      a0: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a1: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a2: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a3: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a4: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a5: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a6: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a7: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a8: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a9: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a10: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a11: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a12: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a13: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a14: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a15: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a16: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n    }\n  }\n": types.HardeningSeventeenPagesDocument,
    "\n  query RecordsPage(\n    $code: DatasetCode!\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      recordCount(where: $where)\n    }\n  }\n": types.RecordsPageDocument,
    "\n  query RecordsPageAndRows(\n    $code: DatasetCode!\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n      }\n      rows(orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node {\n            values\n          }\n        }\n        nodes {\n          values\n        }\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n      }\n    }\n  }\n": types.RecordsPageAndRowsDocument,
    "\n  query RecordsShape($code: DatasetCode!) {\n    dataset(code: $code) {\n      recordsPath\n      shapeFingerprint\n      fields {\n        name\n        types\n        nullable\n        examples\n        distinctCount\n        min\n        max\n        numericStrings\n      }\n    }\n  }\n": types.RecordsShapeDocument,
    "\n  query RecordsSums($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      payload\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n": types.RecordsSumsDocument,
    "\n  query PayloadAndRecords($code: DatasetCode!, $first: Int) {\n    dataset(code: $code) {\n      payload\n      records(first: $first) {\n        totalCount\n      }\n      recordsPath\n    }\n  }\n": types.PayloadAndRecordsDocument,
    "\n  query WarmPayload($code: DatasetCode!) {\n    dataset(code: $code) {\n      code\n      payload\n    }\n  }\n": types.WarmPayloadDocument,
    "\n  query PayloadWithQuery($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      payload(query: $query)\n    }\n  }\n": types.PayloadWithQueryDocument,
    "\n  query CatalogueStatus {\n    summaryEndpoints {\n      endpointId\n      status\n    }\n  }\n": types.CatalogueStatusDocument,
    "\n  query AnonymousSummary {\n    summaryEndpoint(endpointId: 85) {\n      payload(input: { ACADEMIC_YEAR: \"2566\" })\n    }\n  }\n": types.AnonymousSummaryDocument,
    "\n  query StaleCursor {\n    dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) {\n      records(first: 1, after: \"not-a-cursor\") {\n        totalCount\n      }\n    }\n  }\n": types.StaleCursorDocument,
    "\n  mutation RegisterForCacheTest($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n    }\n  }\n": types.RegisterForCacheTestDocument,
    "\n  query CountOtherMajors($other: JSON) {\n    dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) {\n      recordCount(where: [{ field: \"MAJOR\", ne: $other }])\n    }\n  }\n": types.CountOtherMajorsDocument,
    "\n  query TypedTeachersDrift($first: Int) {\n    typedRecords {\n      odsCountTeacherByYear {\n        rows(first: $first, orderBy: [{ field: academicYear }]) {\n          totalCount\n          nodes {\n            academicYear\n            male\n            female\n            total\n            node\n          }\n        }\n      }\n    }\n  }\n": types.TypedTeachersDriftDocument,
    "\n  query UntypedTeachersDrift {\n    dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      records(first: 1) {\n        totalCount\n      }\n    }\n  }\n": types.UntypedTeachersDriftDocument,
    "\n  query SummaryInputs {\n    summaryEndpoints {\n      endpointId\n      titleEn\n      inputs {\n        key\n        description\n        example\n      }\n    }\n  }\n": types.SummaryInputsDocument,
    "\n  query Schools($input: JSONObject) {\n    summaryEndpoint(endpointId: 83) {\n      payload(input: $input)\n    }\n  }\n": types.SchoolsDocument,
    "\n  query TwoReads($guessed: JSONObject, $known: JSONObject) {\n    guessed: summaryEndpoint(endpointId: 83) {\n      payload(input: $guessed)\n    }\n    known: summaryEndpoint(endpointId: 83) {\n      payload(input: $known)\n    }\n  }\n": types.TwoReadsDocument,
    "\n  mutation Register($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n        contactEmail\n        createdAt\n      }\n    }\n  }\n": types.RegisterDocument,
    "\n  mutation RegisterAndRead($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        history {\n          kind\n          actor\n        }\n        useRequests {\n          id\n        }\n      }\n    }\n  }\n": types.RegisterAndReadDocument,
    "\n  query Me {\n    me {\n      id\n      name\n    }\n  }\n": types.MeDocument,
    "\n  query Statuses {\n    summaryEndpoints {\n      endpointId\n      status\n      statusLabel\n    }\n  }\n": types.StatusesDocument,
    "\n  query SummaryPayload84($input: JSONObject) {\n    summaryEndpoint(endpointId: 84) {\n      status\n      statusLabel\n      payload(input: $input)\n    }\n  }\n": types.SummaryPayload84Document,
    "\n  fragment UseRequestFields on UseRequest {\n    id\n    status\n    statusLabel\n    purpose\n    note\n    createdAt\n    updatedAt\n    endpoint {\n      id\n      name\n    }\n    client {\n      id\n      name\n    }\n    history {\n      from\n      to\n      actor\n      note\n      at\n    }\n  }\n": types.UseRequestFieldsFragmentDoc,
    "\n  mutation Ask($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n": types.AskDocument,
    "\n  mutation Review($input: ReviewUseRequestInput!) {\n    reviewUseRequest(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n": types.ReviewDocument,
    "\n  mutation Revoke($input: RevokeUseRequestInput!) {\n    revokeUseRequest(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n": types.RevokeDocument,
    "\n  query Mine {\n    myUseRequests {\n      ...UseRequestFields\n    }\n  }\n": types.MineDocument,
    "\n  query All($status: UseRequestStatus) {\n    useRequests(status: $status) {\n      ...UseRequestFields\n    }\n  }\n": types.AllDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n        mutation R($id: ID!) {\n          reviewUseRequest(input: { id: $id, decision: APPROVE }) {\n            useRequest {\n              id\n            }\n          }\n        }\n      "): (typeof documents)["\n        mutation R($id: ID!) {\n          reviewUseRequest(input: { id: $id, decision: APPROVE }) {\n            useRequest {\n              id\n            }\n          }\n        }\n      "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation KeyRotationRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation KeyRotationRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query KeyRotationMe {\n    me {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query KeyRotationMe {\n    me {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation KeyRotationRotate($graceS: Int!) {\n    rotateApiKey(input: { graceS: $graceS }) {\n      apiKey\n      previousKeysExpireAt\n      client {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation KeyRotationRotate($graceS: Int!) {\n    rotateApiKey(input: { graceS: $graceS }) {\n      apiKey\n      previousKeysExpireAt\n      client {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientCatalogue {\n    datasets {\n      id\n      code\n      title\n    }\n    summaryEndpoints {\n      id\n      endpointId\n      name\n      status\n    }\n  }\n"): (typeof documents)["\n  query ClientCatalogue {\n    datasets {\n      id\n      code\n      title\n    }\n    summaryEndpoints {\n      id\n      endpointId\n      name\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientNode($id: ID!) {\n    node(id: $id) {\n      id\n      ... on Dataset {\n        titleEn\n      }\n    }\n  }\n"): (typeof documents)["\n  query ClientNode($id: ID!) {\n    node(id: $id) {\n      id\n      ... on Dataset {\n        titleEn\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientOneDataset($code: DatasetCode!) {\n    dataset(code: $code) {\n      id\n      code\n      title\n    }\n  }\n"): (typeof documents)["\n  query ClientOneDataset($code: DatasetCode!) {\n    dataset(code: $code) {\n      id\n      code\n      title\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientRecords($after: String) {\n    dataset(code: ODS_COUNT_TEACHER_BY_JURISDICTION) {\n      id\n      records(first: 4, after: $after, orderBy: [{ field: \"TOTAL\", direction: DESC }]) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      fields {\n        name\n        types\n      }\n    }\n  }\n"): (typeof documents)["\n  query ClientRecords($after: String) {\n    dataset(code: ODS_COUNT_TEACHER_BY_JURISDICTION) {\n      id\n      records(first: 4, after: $after, orderBy: [{ field: \"TOTAL\", direction: DESC }]) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      fields {\n        name\n        types\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientTwoPayloads {\n    teachers: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      id\n      payload(query: { ACADEMIC_YEAR: \"2566\" })\n    }\n    graduates: dataset(code: ODS_COUNT_GRADUATE_BY_YEAR) {\n      id\n      payload\n    }\n  }\n"): (typeof documents)["\n  query ClientTwoPayloads {\n    teachers: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      id\n      payload(query: { ACADEMIC_YEAR: \"2566\" })\n    }\n    graduates: dataset(code: ODS_COUNT_GRADUATE_BY_YEAR) {\n      id\n      payload\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClientRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ClientRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClientRequestUse($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        id\n        status\n        history {\n          from\n          to\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ClientRequestUse($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        id\n        status\n        history {\n          from\n          to\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClientReview($input: ReviewUseRequestInput!) {\n    reviewUseRequest(input: $input) {\n      useRequest {\n        id\n        status\n        statusLabel\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ClientReview($input: ReviewUseRequestInput!) {\n    reviewUseRequest(input: $input) {\n      useRequest {\n        id\n        status\n        statusLabel\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientSummary($id: Int!, $input: JSONObject) {\n    summaryEndpoint(endpointId: $id) {\n      id\n      status\n      payload(input: $input)\n    }\n  }\n"): (typeof documents)["\n  query ClientSummary($id: Int!, $input: JSONObject) {\n    summaryEndpoint(endpointId: $id) {\n      id\n      status\n      payload(input: $input)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DatasetMetadata($code: DatasetCode!) {\n    dataset(code: $code) {\n      metadata {\n        descriptiveTitle\n        licence {\n          name\n          url\n        }\n        publisher\n        publisherUrl\n        contactEmail\n        updateFrequency\n        caveats\n        keywords\n        landingPath\n        downloads {\n          format\n          path\n        }\n      }\n      lastFetched {\n        version\n        fetchedAt\n      }\n      fields {\n        name\n        definition {\n          label\n          labelEn\n          unit\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DatasetMetadata($code: DatasetCode!) {\n    dataset(code: $code) {\n      metadata {\n        descriptiveTitle\n        licence {\n          name\n          url\n        }\n        publisher\n        publisherUrl\n        contactEmail\n        updateFrequency\n        caveats\n        keywords\n        landingPath\n        downloads {\n          format\n          path\n        }\n      }\n      lastFetched {\n        version\n        fetchedAt\n      }\n      fields {\n        name\n        definition {\n          label\n          labelEn\n          unit\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DatasetsCoverage {\n    datasets {\n      code\n      metadata {\n        coverage {\n          geography\n          description\n          referencePeriod {\n            kind\n            firstYear\n            lastYear\n            firstYearCe\n            lastYearCe\n            asOf\n            description\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DatasetsCoverage {\n    datasets {\n      code\n      metadata {\n        coverage {\n          geography\n          description\n          referencePeriod {\n            kind\n            firstYear\n            lastYear\n            firstYearCe\n            lastYearCe\n            asOf\n            description\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TeachersGroup {\n    datasets(group: TEACHERS) {\n      code\n      group\n      groups\n    }\n  }\n"): (typeof documents)["\n  query TeachersGroup {\n    datasets(group: TEACHERS) {\n      code\n      group\n      groups\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DownloadCount($code: DatasetCode!, $where: [RecordFilter!], $query: JSONObject) {\n    dataset(code: $code) {\n      recordCount(where: $where, query: $query)\n    }\n  }\n"): (typeof documents)["\n  query DownloadCount($code: DatasetCode!, $where: [RecordFilter!], $query: JSONObject) {\n    dataset(code: $code) {\n      recordCount(where: $where, query: $query)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DownloadRecords($code: DatasetCode!, $where: [RecordFilter!], $orderBy: [RecordOrder!]) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, first: 500) {\n        edges {\n          node\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DownloadRecords($code: DatasetCode!, $where: [RecordFilter!], $orderBy: [RecordOrder!]) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, first: 500) {\n        edges {\n          node\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Labels {\n    summaryEndpoint(endpointId: 83) {\n      status\n      statusLabel\n    }\n    dataset(code: ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER) {\n      agencyName\n      agencyNameEn\n    }\n  }\n"): (typeof documents)["\n  query Labels {\n    summaryEndpoint(endpointId: 83) {\n      status\n      statusLabel\n    }\n    dataset(code: ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER) {\n      agencyName\n      agencyNameEn\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AbuseRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n    }\n  }\n"): (typeof documents)["\n  mutation AbuseRegister($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AbuseRegisterFour($input: RegisterClientInput!) {\n    a: registerClient(input: $input) {\n      apiKey\n    }\n    b: registerClient(input: $input) {\n      apiKey\n    }\n    c: registerClient(input: $input) {\n      apiKey\n    }\n    d: registerClient(input: $input) {\n      apiKey\n    }\n  }\n"): (typeof documents)["\n  mutation AbuseRegisterFour($input: RegisterClientInput!) {\n    a: registerClient(input: $input) {\n      apiKey\n    }\n    b: registerClient(input: $input) {\n      apiKey\n    }\n    c: registerClient(input: $input) {\n      apiKey\n    }\n    d: registerClient(input: $input) {\n      apiKey\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AbuseCatalogue {\n    datasets {\n      no\n    }\n  }\n"): (typeof documents)["\n  query AbuseCatalogue {\n    datasets {\n      no\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Teachers {\n    dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n  }\n"): (typeof documents)["\n  query Teachers {\n    dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TwoBig {\n    dup: dataset(code: V10_DUPWITH) {\n      payload\n    }\n    schools: dataset(code: MV_DWH_SCHOOL1) {\n      payload\n    }\n  }\n"): (typeof documents)["\n  query TwoBig {\n    dup: dataset(code: V10_DUPWITH) {\n      payload\n    }\n    schools: dataset(code: MV_DWH_SCHOOL1) {\n      payload\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Catalogue {\n    datasets {\n      no\n      code\n      title\n      titleEn\n      group\n      agency\n      agencyName\n      method\n      apiUrl\n    }\n    summaryEndpoints {\n      endpointId\n      name\n      subject\n      title\n      method\n      apiUrl\n      version\n      status\n      statusLabel\n    }\n  }\n"): (typeof documents)["\n  query Catalogue {\n    datasets {\n      no\n      code\n      title\n      titleEn\n      group\n      agency\n      agencyName\n      method\n      apiUrl\n    }\n    summaryEndpoints {\n      endpointId\n      name\n      subject\n      title\n      method\n      apiUrl\n      version\n      status\n      statusLabel\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FilteredDatasets($group: DataGroup, $agency: Agency) {\n    datasets(group: $group, agency: $agency) {\n      no\n    }\n  }\n"): (typeof documents)["\n  query FilteredDatasets($group: DataGroup, $agency: Agency) {\n    datasets(group: $group, agency: $agency) {\n      no\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OneDataset($code: DatasetCode!) {\n    dataset(code: $code) {\n      no\n      code\n      titleEn\n    }\n  }\n"): (typeof documents)["\n  query OneDataset($code: DatasetCode!) {\n    dataset(code: $code) {\n      no\n      code\n      titleEn\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OneSummaryEndpoint($id: Int!) {\n    summaryEndpoint(endpointId: $id) {\n      id\n      endpointId\n      name\n    }\n  }\n"): (typeof documents)["\n  query OneSummaryEndpoint($id: Int!) {\n    summaryEndpoint(endpointId: $id) {\n      id\n      endpointId\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TwoDatasets {\n    failing: dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {\n      code\n      payload\n    }\n    healthy: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      code\n      payload\n    }\n  }\n"): (typeof documents)["\n  query TwoDatasets {\n    failing: dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {\n      code\n      payload\n    }\n    healthy: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      code\n      payload\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SummaryPayload {\n    summaryEndpoint(endpointId: 84) {\n      status\n      payload(input: { ACADEMIC_YEAR: \"2566\" })\n    }\n  }\n"): (typeof documents)["\n  query SummaryPayload {\n    summaryEndpoint(endpointId: 84) {\n      status\n      payload(input: { ACADEMIC_YEAR: \"2566\" })\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DatasetIds {\n    datasets {\n      id\n      code\n    }\n  }\n"): (typeof documents)["\n  query DatasetIds {\n    datasets {\n      id\n      code\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NodeById($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Dataset {\n        code\n        title\n      }\n      ... on Client {\n        name\n      }\n      ... on UseRequest {\n        status\n        client {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query NodeById($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Dataset {\n        code\n        title\n      }\n      ... on Client {\n        name\n      }\n      ... on UseRequest {\n        status\n        client {\n          id\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NodesByIds($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      __typename\n      id\n    }\n  }\n"): (typeof documents)["\n  query NodesByIds($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      __typename\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegisterForNodes($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RegisterForNodes($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AskForNodes($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation AskForNodes($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BothUpstreamsShape($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      recordsPath(query: $query)\n      recordCount(query: $query)\n      fields(query: $query) {\n        name\n        types\n        numericStrings\n      }\n    }\n  }\n"): (typeof documents)["\n  query BothUpstreamsShape($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      recordsPath(query: $query)\n      recordCount(query: $query)\n      fields(query: $query) {\n        name\n        types\n        numericStrings\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BothUpstreamsSums($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n"): (typeof documents)["\n  query BothUpstreamsSums($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BothUpstreamsTypedByYear {\n    typedRecords {\n      odsCountTeacherByYear {\n        aggregate(groupBy: [academicYear], sum: [total], where: { academicYear: { gte: \"2565\" } }) {\n          academicYear\n          total\n          count\n        }\n        rows(orderBy: [{ field: academicYear, direction: DESC }], first: 2) {\n          totalCount\n          nodes {\n            academicYear\n            male\n            female\n            total\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query BothUpstreamsTypedByYear {\n    typedRecords {\n      odsCountTeacherByYear {\n        aggregate(groupBy: [academicYear], sum: [total], where: { academicYear: { gte: \"2565\" } }) {\n          academicYear\n          total\n          count\n        }\n        rows(orderBy: [{ field: academicYear, direction: DESC }], first: 2) {\n          totalCount\n          nodes {\n            academicYear\n            male\n            female\n            total\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Payload($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      payload(query: $query)\n    }\n  }\n"): (typeof documents)["\n  query Payload($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      payload(query: $query)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AllPayloads {\n    datasets {\n      code\n      payload\n    }\n  }\n"): (typeof documents)["\n  query AllPayloads {\n    datasets {\n      code\n      payload\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AliasedPayloads {\n    datasets {\n      code\n      payload\n    }\n    a: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n    b: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n    y1: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload(query: { ACADEMIC_YEAR: \"2566\", LIMIT: 5 })\n    }\n    y2: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      again: payload(query: { LIMIT: \"5\", ACADEMIC_YEAR: \"2566\" })\n    }\n    y3: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload(query: { ACADEMIC_YEAR: \"2565\" })\n    }\n  }\n"): (typeof documents)["\n  query AliasedPayloads {\n    datasets {\n      code\n      payload\n    }\n    a: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n    b: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload\n    }\n    y1: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload(query: { ACADEMIC_YEAR: \"2566\", LIMIT: 5 })\n    }\n    y2: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      again: payload(query: { LIMIT: \"5\", ACADEMIC_YEAR: \"2566\" })\n    }\n    y3: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      payload(query: { ACADEMIC_YEAR: \"2565\" })\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query HardeningPage(\n    $code: DatasetCode!\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          node\n        }\n        pageInfo {\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query HardeningPage(\n    $code: DatasetCode!\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          node\n        }\n        pageInfo {\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query HardeningCount($code: DatasetCode!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      recordCount(where: $where)\n    }\n  }\n"): (typeof documents)["\n  query HardeningCount($code: DatasetCode!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      recordCount(where: $where)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query HardeningAggregate($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n"): (typeof documents)["\n  query HardeningAggregate($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query HardeningWorst(\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $groupBy: [String!]!\n    $sum: [String!]!\n  ) {\n    dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {\n      recordCount(where: $where)\n      records(where: $where, orderBy: $orderBy, select: $select, first: 500) {\n        totalCount\n        edges {\n          node\n        }\n      }\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n"): (typeof documents)["\n  query HardeningWorst(\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $groupBy: [String!]!\n    $sum: [String!]!\n  ) {\n    dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {\n      recordCount(where: $where)\n      records(where: $where, orderBy: $orderBy, select: $select, first: 500) {\n        totalCount\n        edges {\n          node\n        }\n      }\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query HardeningSeventeenPages {\n    dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {\n      a0: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a1: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a2: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a3: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a4: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a5: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a6: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a7: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a8: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a9: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a10: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a11: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a12: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a13: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a14: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a15: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a16: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query HardeningSeventeenPages {\n    dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {\n      a0: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a1: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a2: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a3: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a4: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a5: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a6: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a7: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a8: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a9: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a10: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a11: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a12: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a13: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a14: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a15: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n      a16: records(first: 500) {\n        edges {\n          cursor\n          node\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RecordsPage(\n    $code: DatasetCode!\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      recordCount(where: $where)\n    }\n  }\n"): (typeof documents)["\n  query RecordsPage(\n    $code: DatasetCode!\n    $where: [RecordFilter!]\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(where: $where, orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      recordCount(where: $where)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RecordsPageAndRows(\n    $code: DatasetCode!\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n      }\n      rows(orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node {\n            values\n          }\n        }\n        nodes {\n          values\n        }\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query RecordsPageAndRows(\n    $code: DatasetCode!\n    $orderBy: [RecordOrder!]\n    $select: [String!]\n    $first: Int\n    $after: String\n  ) {\n    dataset(code: $code) {\n      records(orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node\n        }\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n      }\n      rows(orderBy: $orderBy, select: $select, first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node {\n            values\n          }\n        }\n        nodes {\n          values\n        }\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RecordsShape($code: DatasetCode!) {\n    dataset(code: $code) {\n      recordsPath\n      shapeFingerprint\n      fields {\n        name\n        types\n        nullable\n        examples\n        distinctCount\n        min\n        max\n        numericStrings\n      }\n    }\n  }\n"): (typeof documents)["\n  query RecordsShape($code: DatasetCode!) {\n    dataset(code: $code) {\n      recordsPath\n      shapeFingerprint\n      fields {\n        name\n        types\n        nullable\n        examples\n        distinctCount\n        min\n        max\n        numericStrings\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RecordsSums($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      payload\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n"): (typeof documents)["\n  query RecordsSums($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {\n    dataset(code: $code) {\n      payload\n      aggregate(groupBy: $groupBy, sum: $sum, where: $where)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PayloadAndRecords($code: DatasetCode!, $first: Int) {\n    dataset(code: $code) {\n      payload\n      records(first: $first) {\n        totalCount\n      }\n      recordsPath\n    }\n  }\n"): (typeof documents)["\n  query PayloadAndRecords($code: DatasetCode!, $first: Int) {\n    dataset(code: $code) {\n      payload\n      records(first: $first) {\n        totalCount\n      }\n      recordsPath\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WarmPayload($code: DatasetCode!) {\n    dataset(code: $code) {\n      code\n      payload\n    }\n  }\n"): (typeof documents)["\n  query WarmPayload($code: DatasetCode!) {\n    dataset(code: $code) {\n      code\n      payload\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PayloadWithQuery($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      payload(query: $query)\n    }\n  }\n"): (typeof documents)["\n  query PayloadWithQuery($code: DatasetCode!, $query: JSONObject) {\n    dataset(code: $code) {\n      payload(query: $query)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CatalogueStatus {\n    summaryEndpoints {\n      endpointId\n      status\n    }\n  }\n"): (typeof documents)["\n  query CatalogueStatus {\n    summaryEndpoints {\n      endpointId\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AnonymousSummary {\n    summaryEndpoint(endpointId: 85) {\n      payload(input: { ACADEMIC_YEAR: \"2566\" })\n    }\n  }\n"): (typeof documents)["\n  query AnonymousSummary {\n    summaryEndpoint(endpointId: 85) {\n      payload(input: { ACADEMIC_YEAR: \"2566\" })\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StaleCursor {\n    dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) {\n      records(first: 1, after: \"not-a-cursor\") {\n        totalCount\n      }\n    }\n  }\n"): (typeof documents)["\n  query StaleCursor {\n    dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) {\n      records(first: 1, after: \"not-a-cursor\") {\n        totalCount\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegisterForCacheTest($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n    }\n  }\n"): (typeof documents)["\n  mutation RegisterForCacheTest($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CountOtherMajors($other: JSON) {\n    dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) {\n      recordCount(where: [{ field: \"MAJOR\", ne: $other }])\n    }\n  }\n"): (typeof documents)["\n  query CountOtherMajors($other: JSON) {\n    dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) {\n      recordCount(where: [{ field: \"MAJOR\", ne: $other }])\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TypedTeachersDrift($first: Int) {\n    typedRecords {\n      odsCountTeacherByYear {\n        rows(first: $first, orderBy: [{ field: academicYear }]) {\n          totalCount\n          nodes {\n            academicYear\n            male\n            female\n            total\n            node\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query TypedTeachersDrift($first: Int) {\n    typedRecords {\n      odsCountTeacherByYear {\n        rows(first: $first, orderBy: [{ field: academicYear }]) {\n          totalCount\n          nodes {\n            academicYear\n            male\n            female\n            total\n            node\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UntypedTeachersDrift {\n    dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      records(first: 1) {\n        totalCount\n      }\n    }\n  }\n"): (typeof documents)["\n  query UntypedTeachersDrift {\n    dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n      records(first: 1) {\n        totalCount\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SummaryInputs {\n    summaryEndpoints {\n      endpointId\n      titleEn\n      inputs {\n        key\n        description\n        example\n      }\n    }\n  }\n"): (typeof documents)["\n  query SummaryInputs {\n    summaryEndpoints {\n      endpointId\n      titleEn\n      inputs {\n        key\n        description\n        example\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Schools($input: JSONObject) {\n    summaryEndpoint(endpointId: 83) {\n      payload(input: $input)\n    }\n  }\n"): (typeof documents)["\n  query Schools($input: JSONObject) {\n    summaryEndpoint(endpointId: 83) {\n      payload(input: $input)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TwoReads($guessed: JSONObject, $known: JSONObject) {\n    guessed: summaryEndpoint(endpointId: 83) {\n      payload(input: $guessed)\n    }\n    known: summaryEndpoint(endpointId: 83) {\n      payload(input: $known)\n    }\n  }\n"): (typeof documents)["\n  query TwoReads($guessed: JSONObject, $known: JSONObject) {\n    guessed: summaryEndpoint(endpointId: 83) {\n      payload(input: $guessed)\n    }\n    known: summaryEndpoint(endpointId: 83) {\n      payload(input: $known)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Register($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n        contactEmail\n        createdAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Register($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        name\n        contactEmail\n        createdAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegisterAndRead($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        history {\n          kind\n          actor\n        }\n        useRequests {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RegisterAndRead($input: RegisterClientInput!) {\n    registerClient(input: $input) {\n      apiKey\n      client {\n        id\n        history {\n          kind\n          actor\n        }\n        useRequests {\n          id\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Statuses {\n    summaryEndpoints {\n      endpointId\n      status\n      statusLabel\n    }\n  }\n"): (typeof documents)["\n  query Statuses {\n    summaryEndpoints {\n      endpointId\n      status\n      statusLabel\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SummaryPayload84($input: JSONObject) {\n    summaryEndpoint(endpointId: 84) {\n      status\n      statusLabel\n      payload(input: $input)\n    }\n  }\n"): (typeof documents)["\n  query SummaryPayload84($input: JSONObject) {\n    summaryEndpoint(endpointId: 84) {\n      status\n      statusLabel\n      payload(input: $input)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment UseRequestFields on UseRequest {\n    id\n    status\n    statusLabel\n    purpose\n    note\n    createdAt\n    updatedAt\n    endpoint {\n      id\n      name\n    }\n    client {\n      id\n      name\n    }\n    history {\n      from\n      to\n      actor\n      note\n      at\n    }\n  }\n"): (typeof documents)["\n  fragment UseRequestFields on UseRequest {\n    id\n    status\n    statusLabel\n    purpose\n    note\n    createdAt\n    updatedAt\n    endpoint {\n      id\n      name\n    }\n    client {\n      id\n      name\n    }\n    history {\n      from\n      to\n      actor\n      note\n      at\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Ask($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Ask($input: RequestEndpointUseInput!) {\n    requestEndpointUse(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Review($input: ReviewUseRequestInput!) {\n    reviewUseRequest(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Review($input: ReviewUseRequestInput!) {\n    reviewUseRequest(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Revoke($input: RevokeUseRequestInput!) {\n    revokeUseRequest(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Revoke($input: RevokeUseRequestInput!) {\n    revokeUseRequest(input: $input) {\n      useRequest {\n        ...UseRequestFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Mine {\n    myUseRequests {\n      ...UseRequestFields\n    }\n  }\n"): (typeof documents)["\n  query Mine {\n    myUseRequests {\n      ...UseRequestFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query All($status: UseRequestStatus) {\n    useRequests(status: $status) {\n      ...UseRequestFields\n    }\n  }\n"): (typeof documents)["\n  query All($status: UseRequestStatus) {\n    useRequests(status: $status) {\n      ...UseRequestFields\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;