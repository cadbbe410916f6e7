/**
 * A worker thread of `npm run audit`: regenerates pieces of the field (the initial field or one
 * ring) and compares them with the archive. The protocol and the work are the shared auditor's
 * (src/daily/audit/piece-protocol.ts), the same a browser's Web Workers run.
 */
import { parentPort } from "node:worker_threads";
import { pieceWorkerEndpoint, type FromPieceWorker, type ToPieceWorker } from "../src/daily/audit/piece-protocol";

const port = parentPort!;
const receive = pieceWorkerEndpoint((message: FromPieceWorker) => port.postMessage(message));
port.on("message", (message: ToPieceWorker) => receive(message));
