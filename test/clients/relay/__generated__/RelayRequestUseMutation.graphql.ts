/**
 * @generated SignedSource<<1127e789111895cb9b3d7fa0ec9e4600>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import type { ConcreteRequest } from 'relay-runtime';
export type UseRequestStatus = "APPROVED" | "NOT_REQUESTED" | "PENDING" | "REJECTED" | "REVOKED" | "%future added value";
export type RelayRequestUseMutation$variables = {
  id: string;
  purpose: string;
};
export type RelayRequestUseMutation$data = {
  readonly requestEndpointUse: {
    readonly useRequest: {
      readonly endpoint: {
        readonly id: string;
        readonly status: UseRequestStatus;
      };
      readonly id: string;
      readonly status: UseRequestStatus;
    };
  };
};
export type RelayRequestUseMutation = {
  response: RelayRequestUseMutation$data;
  variables: RelayRequestUseMutation$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "id"
  },
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "purpose"
  }
],
v1 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "id",
  "storageKey": null
},
v2 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "status",
  "storageKey": null
},
v3 = [
  {
    "alias": null,
    "args": [
      {
        "fields": [
          {
            "kind": "Variable",
            "name": "id",
            "variableName": "id"
          },
          {
            "kind": "Variable",
            "name": "purpose",
            "variableName": "purpose"
          }
        ],
        "kind": "ObjectValue",
        "name": "input"
      }
    ],
    "concreteType": "UseRequestPayload",
    "kind": "LinkedField",
    "name": "requestEndpointUse",
    "plural": false,
    "selections": [
      {
        "alias": null,
        "args": null,
        "concreteType": "UseRequest",
        "kind": "LinkedField",
        "name": "useRequest",
        "plural": false,
        "selections": [
          (v1/*:: as any*/),
          (v2/*:: as any*/),
          {
            "alias": null,
            "args": null,
            "concreteType": "SummaryEndpoint",
            "kind": "LinkedField",
            "name": "endpoint",
            "plural": false,
            "selections": [
              (v1/*:: as any*/),
              (v2/*:: as any*/)
            ],
            "storageKey": null
          }
        ],
        "storageKey": null
      }
    ],
    "storageKey": null
  }
];
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "RelayRequestUseMutation",
    "selections": (v3/*:: as any*/),
    "type": "Mutation",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Operation",
    "name": "RelayRequestUseMutation",
    "selections": (v3/*:: as any*/)
  },
  "params": {
    "cacheID": "e85e9182929ac4e70094e2148d6e4326",
    "id": null,
    "metadata": {},
    "name": "RelayRequestUseMutation",
    "operationKind": "mutation",
    "text": "mutation RelayRequestUseMutation(\n  $id: ID!\n  $purpose: String!\n) {\n  requestEndpointUse(input: {id: $id, purpose: $purpose}) {\n    useRequest {\n      id\n      status\n      endpoint {\n        id\n        status\n      }\n    }\n  }\n}\n"
  }
};
})();

(node as any).hash = "321eadbcec571e17db26810fa84a8fa0";

export default node;
