/** What an element made by dom.js's `h` may hold: nodes, text, numbers (as text), nothing, or lists of these. */
export type Child = Node | string | number | null | undefined | false | Child[];
