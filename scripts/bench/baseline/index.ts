/** The frozen reference engine's entry points (see README.md: benchmark and bit-identity test only). */
export { generateField, generateRing } from "./engine/generate/generator";
export { fieldDigest } from "./engine/field-digest";
