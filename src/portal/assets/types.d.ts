// The shapes the portal reads from the public GraphQL API (the fields its operations select), and the DOM builder's
// children: declarations only, for the type check of the browser modules' JSDoc.

export type Child = Node | string | number | null | undefined | false | Child[];

export interface DatasetSummary {
  no: number;
  code: string;
  title: string;
  titleEn: string;
  group: string;
  agency: string;
  agencyName: string;
  agencyNameEn: string;
  method: string;
  apiUrl: string;
  version: string | null;
  changedAt: string | null;
}

export interface SummaryEndpoint {
  name: string;
  title: string;
  subject: string;
  apiUrl: string;
  version?: number;
  status: string;
  statusLabel: string;
}

export interface UseRequestEvent {
  from: string;
  to: string;
  actor: string;
  at: string;
  note: string | null;
}

export interface Client {
  id: string;
  name: string;
  contactEmail: string;
  createdAt: string;
  disabledAt: string | null;
  rateLimitPoints: number | null;
}

/** A page of a list the API pages with cursors. */
export interface Connection<T> {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { node: T }[];
}

/** A client as the operator's directory shows it. */
export interface DirectoryClient extends Client {
  useRequests: Pick<UseRequest, 'id' | 'status' | 'statusLabel' | 'endpoint'>[];
  usage: { day: string; operations: number }[];
  summaryReads: { totalCount: number; edges: { node: { at: string; endpoint: SummaryEndpoint } }[] };
}

export interface ClientEvent {
  kind: string;
  actor: string;
  detail: string | null;
  at: string;
}

export interface UseRequest {
  id: string;
  status: string;
  statusLabel: string;
  purpose: string;
  note: string | null;
  createdAt: string;
  updatedAt: string;
  endpoint: SummaryEndpoint;
  history?: UseRequestEvent[];
  client: Client;
}

export interface DatasetChange {
  version: string;
  changedAt: string;
  recordCount?: number;
  dataset: { code: string };
}

/** A record or an aggregate group of typed records: field name to value. */
export type Row = Record<string, string | number | null>;

export interface ShapeField {
  key: string;
  name: string;
  type: string;
  nullable: boolean;
}

export interface Shape {
  code: string;
  recordsPath: string;
  fields: ShapeField[];
}
