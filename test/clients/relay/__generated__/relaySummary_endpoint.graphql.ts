/**
 * @generated SignedSource<<4f121adf0a1aa1a9cda4b9b2efacadc5>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import type { ReaderFragment } from 'relay-runtime';
export type UseRequestStatus = "APPROVED" | "NOT_REQUESTED" | "PENDING" | "REJECTED" | "REVOKED" | "%future added value";
import type { FragmentRefs } from "relay-runtime";
export type relaySummary_endpoint$data = {
  readonly endpointId: number;
  readonly id: string;
  readonly status: UseRequestStatus;
  readonly titleEn: string;
  readonly " $fragmentType": "relaySummary_endpoint";
};
export type relaySummary_endpoint$key = {
  readonly " $data"?: relaySummary_endpoint$data;
  readonly " $fragmentSpreads": FragmentRefs<"relaySummary_endpoint">;
};

import RelaySummaryRefetchQuery_graphql from './RelaySummaryRefetchQuery.graphql';

const node: ReaderFragment = {
  "argumentDefinitions": [],
  "kind": "Fragment",
  "metadata": {
    "refetch": {
      "connection": null,
      "fragmentPathInResult": [
        "node"
      ],
      "operation": RelaySummaryRefetchQuery_graphql,
      "identifierInfo": {
        "identifierField": "id",
        "identifierQueryVariableName": "id"
      }
    }
  },
  "name": "relaySummary_endpoint",
  "selections": [
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "id",
      "storageKey": null
    },
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "endpointId",
      "storageKey": null
    },
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "titleEn",
      "storageKey": null
    },
    {
      "alias": null,
      "args": null,
      "kind": "ScalarField",
      "name": "status",
      "storageKey": null
    }
  ],
  "type": "SummaryEndpoint",
  "abstractKey": null
};

(node as any).hash = "22a42521091d764000533c5a334292f0";

export default node;
