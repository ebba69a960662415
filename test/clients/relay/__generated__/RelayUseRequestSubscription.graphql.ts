/**
 * @generated SignedSource<<7a2b019808448975dbdfee958eda77b2>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import type { ConcreteRequest } from 'relay-runtime';
export type UseRequestStatus = "APPROVED" | "NOT_REQUESTED" | "PENDING" | "REJECTED" | "REVOKED" | "%future added value";
export type RelayUseRequestSubscription$variables = Record<PropertyKey, never>;
export type RelayUseRequestSubscription$data = {
  readonly useRequestChanged: {
    readonly endpoint: {
      readonly id: string;
      readonly status: UseRequestStatus;
    };
    readonly id: string;
    readonly status: UseRequestStatus;
  };
};
export type RelayUseRequestSubscription = {
  response: RelayUseRequestSubscription$data;
  variables: RelayUseRequestSubscription$variables;
};

const node: ConcreteRequest = (function(){
var v0 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "id",
  "storageKey": null
},
v1 = {
  "alias": null,
  "args": null,
  "kind": "ScalarField",
  "name": "status",
  "storageKey": null
},
v2 = [
  {
    "alias": null,
    "args": null,
    "concreteType": "UseRequest",
    "kind": "LinkedField",
    "name": "useRequestChanged",
    "plural": false,
    "selections": [
      (v0/*:: as any*/),
      (v1/*:: as any*/),
      {
        "alias": null,
        "args": null,
        "concreteType": "SummaryEndpoint",
        "kind": "LinkedField",
        "name": "endpoint",
        "plural": false,
        "selections": [
          (v0/*:: as any*/),
          (v1/*:: as any*/)
        ],
        "storageKey": null
      }
    ],
    "storageKey": null
  }
];
return {
  "fragment": {
    "argumentDefinitions": [],
    "kind": "Fragment",
    "metadata": null,
    "name": "RelayUseRequestSubscription",
    "selections": (v2/*:: as any*/),
    "type": "Subscription",
    "abstractKey": null
  },
  "kind": "Request",
  "operation": {
    "argumentDefinitions": [],
    "kind": "Operation",
    "name": "RelayUseRequestSubscription",
    "selections": (v2/*:: as any*/)
  },
  "params": {
    "cacheID": "ee335b96e7a312f07866d0a44d232432",
    "id": null,
    "metadata": {},
    "name": "RelayUseRequestSubscription",
    "operationKind": "subscription",
    "text": "subscription RelayUseRequestSubscription {\n  useRequestChanged {\n    id\n    status\n    endpoint {\n      id\n      status\n    }\n  }\n}\n"
  }
};
})();

(node as any).hash = "39243c06e3ed66de6f4e4273406591d9";

export default node;
