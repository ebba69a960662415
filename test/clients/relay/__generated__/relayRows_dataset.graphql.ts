/**
 * @generated SignedSource<<4efdff1bcdc55854c5779ca655817fcf>>
 * @lightSyntaxTransform
 */

/* tslint:disable */
/* eslint-disable */
// @ts-nocheck

import type { ReaderFragment } from 'relay-runtime';
export type DatasetCode = "MV_DWH_SCHOOL1" | "ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST" | "ODS_COUNT_GRADUATE_BY_YEAR" | "ODS_COUNT_SCHOOL_BY_JURISDICTION" | "ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST" | "ODS_COUNT_STUDENT_BY_MAJOR" | "ODS_COUNT_TEACHER_BY_JURISDICTION" | "ODS_COUNT_TEACHER_BY_YEAR" | "ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER" | "OPENDATA_MIS_STAT_CLASSROOM" | "OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER" | "V10_DUPWITH" | "ZVIEW_CPS_SUMMARY_DATA" | "%future added value";
import type { FragmentRefs } from "relay-runtime";
export type relayRows_dataset$data = {
  readonly code: DatasetCode;
  readonly id: string;
  readonly rows: {
    readonly edges: ReadonlyArray<{
      readonly node: {
        readonly values: Record<string, unknown>;
      };
    }>;
    readonly pageInfo: {
      readonly endCursor: string | null | undefined;
      readonly hasNextPage: boolean;
    };
    readonly totalCount: number;
  } | null | undefined;
  readonly " $fragmentType": "relayRows_dataset";
};
export type relayRows_dataset$key = {
  readonly " $data"?: relayRows_dataset$data;
  readonly " $fragmentSpreads": FragmentRefs<"relayRows_dataset">;
};

import RelayRowsPaginationQuery_graphql from './RelayRowsPaginationQuery.graphql';

const node: ReaderFragment = (function(){
var v0 = [
  "rows"
];
return {
  "argumentDefinitions": [
    {
      "defaultValue": 5,
      "kind": "LocalArgument",
      "name": "count"
    },
    {
      "defaultValue": null,
      "kind": "LocalArgument",
      "name": "cursor"
    }
  ],
  "kind": "Fragment",
  "metadata": {
    "connection": [
      {
        "count": "count",
        "cursor": "cursor",
        "direction": "forward",
        "path": (v0/*:: as any*/)
      }
    ],
    "refetch": {
      "connection": {
        "forward": {
          "count": "count",
          "cursor": "cursor"
        },
        "backward": null,
        "path": (v0/*:: as any*/)
      },
      "fragmentPathInResult": [
        "node"
      ],
      "operation": RelayRowsPaginationQuery_graphql,
      "identifierInfo": {
        "identifierField": "id",
        "identifierQueryVariableName": "id"
      }
    }
  },
  "name": "relayRows_dataset",
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
      "alias": "rows",
      "args": null,
      "concreteType": "RecordRowConnection",
      "kind": "LinkedField",
      "name": "__relayRows_rows_connection",
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
      "storageKey": null
    }
  ],
  "type": "Dataset",
  "abstractKey": null
};
})();

(node as any).hash = "0ce0f0f7cbe59b365355f2a4365ef214";

export default node;
