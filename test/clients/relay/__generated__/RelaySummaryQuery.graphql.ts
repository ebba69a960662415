/**
 * @generated SignedSource<<e65ebe13af7e0f3703e4bb486804c97a>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import type { ConcreteRequest } from 'relay-runtime';
import type { FragmentRefs } from "relay-runtime";
export type RelaySummaryQuery$variables = {
  endpointId: number;
};
export type RelaySummaryQuery$data = {
  readonly summaryEndpoint: {
    readonly " $fragmentSpreads": FragmentRefs<"relaySummary_endpoint">;
  } | null | undefined;
};
export type RelaySummaryQuery = {
  response: RelaySummaryQuery$data;
  variables: RelaySummaryQuery$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "endpointId"
  }
],
v1 = [
  {
    "kind": "Variable",
    "name": "endpointId",
    "variableName": "endpointId"
  }
];
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "RelaySummaryQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "SummaryEndpoint",
        "kind": "LinkedField",
        "name": "summaryEndpoint",
        "plural": false,
        "selections": [
          {
            "args": null,
            "kind": "FragmentSpread",
            "name": "relaySummary_endpoint"
          }
        ],
        "storageKey": null
      }
    ],
    "type": "Query",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Operation",
    "name": "RelaySummaryQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "SummaryEndpoint",
        "kind": "LinkedField",
        "name": "summaryEndpoint",
        "plural": false,
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
        "storageKey": null
      }
    ]
  },
  "params": {
    "cacheID": "ca18b536cfd4a20ac3e91b5f44c3e8e9",
    "id": null,
    "metadata": {},
    "name": "RelaySummaryQuery",
    "operationKind": "query",
    "text": "query RelaySummaryQuery(\n  $endpointId: Int!\n) {\n  summaryEndpoint(endpointId: $endpointId) {\n    ...relaySummary_endpoint\n    id\n  }\n}\n\nfragment relaySummary_endpoint on SummaryEndpoint {\n  id\n  endpointId\n  titleEn\n  status\n}\n"
  }
};
})();

(node as any).hash = "e0c2285fe0e1f00e615af091324b40b9";

export default node;
