/** The puzzle engine: pure TypeScript, no platform APIs beyond WebCrypto. */
export * from "./types";
export * from "./geometry";
export * from "./random";
export * from "./lines";
export * from "./problem";
export * from "./solver";
export * from "./tile-problem";
export * from "./generate/params";
export * from "./generate/generator";
export type { ShapeKind } from "./generate/shapes";
export * from "./field-digest";
export * from "./playability";
export * from "./bit-solver";
