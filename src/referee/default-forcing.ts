import { Propagator } from "../engine/propagation";
import type { ForcingOracleFactory } from "./forcing";

/** The engine's incremental propagation (SPEC §4.5) classifies forced cells by default. */
export const defaultForcing: ForcingOracleFactory = (G, depth) => new Propagator(G, depth);
