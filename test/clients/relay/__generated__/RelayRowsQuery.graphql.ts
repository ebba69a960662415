/**
 * @generated SignedSource<<c50df07cfa7788d7039906a22a36df67>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import type { ConcreteRequest } from 'relay-runtime';
import type { FragmentRefs } from "relay-runtime";
export type DatasetCode = "MV_DWH_SCHOOL1" | "ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST" | "ODS_COUNT_GRADUATE_BY_YEAR" | "ODS_COUNT_SCHOOL_BY_JURISDICTION" | "ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST" | "ODS_COUNT_STUDENT_BY_MAJOR" | "ODS_COUNT_TEACHER_BY_JURISDICTION" | "ODS_COUNT_TEACHER_BY_YEAR" | "ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER" | "OPENDATA_MIS_STAT_CLASSROOM" | "OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER" | "V10_DUPWITH" | "ZVIEW_CPS_SUMMARY_DATA" | "%future added value";
export type RelayRowsQuery$variables = {
  code: DatasetCode;
};
export type RelayRowsQuery$data = {
  readonly dataset: {
    readonly " $fragmentSpreads": FragmentRefs<"relayRows_dataset">;
  };
};
export type RelayRowsQuery = {
  response: RelayRowsQuery$data;
  variables: RelayRowsQuery$variables;
};

const node: ConcreteRequest = (function(){
var v0 = [
  {
    "defaultValue": null,
    "kind": "LocalArgument",
    "name": "code"
  }
],
v1 = [
  {
    "kind": "Variable",
    "name": "code",
    "variableName": "code"
  }
],
v2 = [
  {
    "kind": "Literal",
    "name": "first",
    "value": 5
  }
];
return {
  "fragment": {
    "argumentDefinitions": (v0/*:: as any*/),
    "kind": "Fragment",
    "metadata": null,
    "name": "RelayRowsQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "Dataset",
        "kind": "LinkedField",
        "name": "dataset",
        "plural": false,
        "selections": [
          {
            "args": null,
            "kind": "FragmentSpread",
            "name": "relayRows_dataset"
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
    "name": "RelayRowsQuery",
    "selections": [
      {
        "alias": null,
        "args": (v1/*:: as any*/),
        "concreteType": "Dataset",
        "kind": "LinkedField",
        "name": "dataset",
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
            "name": "code",
            "storageKey": null
          },
          {
            "alias": null,
            "args": (v2/*:: as any*/),
            "concreteType": "RecordRowConnection",
            "kind": "LinkedField",
            "name": "rows",
            "plural": false,
            "selections": [
              {
                "alias": null,
                "args": null,
                "kind": "ScalarField",
                "name": "totalCount",
                "storageKey": null
              },
              {
                "alias": null,
                "args": null,
                "concreteType": "PageInfo",
                "kind": "LinkedField",
                "name": "pageInfo",
                "plural": false,
                "selections": [
                  {
                    "alias": null,
                    "args": null,
                    "kind": "ScalarField",
                    "name": "hasNextPage",
                    "storageKey": null
                  },
                  {
                    "alias": null,
                    "args": null,
                    "kind": "ScalarField",
                    "name": "endCursor",
                    "storageKey": null
                  }
                ],
                "storageKey": null
              },
              {
                "alias": null,
                "args": null,
                "concreteType": "RecordRowEdge",
                "kind": "LinkedField",
                "name": "edges",
                "plural": true,
                "selections": [
                  {
                    "alias": null,
                    "args": null,
                    "concreteType": "RecordRow",
                    "kind": "LinkedField",
                    "name": "node",
                    "plural": false,
                    "selections": [
                      {
                        "alias": null,
                        "args": null,
                        "kind": "ScalarField",
                        "name": "values",
                        "storageKey": null
                      },
                      {
                        "alias": null,
                        "args": null,
                        "kind": "ScalarField",
                        "name": "__typename",
                        "storageKey": null
                      }
                    ],
                    "storageKey": null
                  },
                  {
                    "alias": null,
                    "args": null,
                    "kind": "ScalarField",
                    "name": "cursor",
                    "storageKey": null
                  }
                ],
                "storageKey": null
              }
            ],
            "storageKey": "rows(first:5)"
          },
          {
            "alias": null,
            "args": (v2/*:: as any*/),
            "filters": null,
            "handle": "connection",
            "key": "relayRows_rows",
            "kind": "LinkedHandle",
            "name": "rows"
          }
        ],
        "storageKey": null
      }
    ]
  },
  "params": {
    "cacheID": "9890f3d444c89c5c82801e288a6e6318",
    "id": null,
    "metadata": {},
    "name": "RelayRowsQuery",
    "operationKind": "query",
    "text": "query RelayRowsQuery(\n  $code: DatasetCode!\n) {\n  dataset(code: $code) {\n    ...relayRows_dataset\n    id\n  }\n}\n\nfragment relayRows_dataset on Dataset {\n  id\n  code\n  rows(first: 5) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      node {\n        values\n        __typename\n      }\n      cursor\n    }\n  }\n}\n"
  }
};
})();

(node as any).hash = "5dffa922c44f8c48c44edb5ca673749d";

export default node;
