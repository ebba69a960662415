/** A JSON object of unknown shape: what clients pass as `query`/`input` and what upstream bodies may be. */
export type JsonObject = { [key: string]: unknown };
