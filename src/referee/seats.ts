import { MachineHealth, type HealthSnapshot } from "./health";
import { agentId } from "./agent-id";
import { copyTags } from "./tags";
import type { SeatDetails } from "./types";

/** At most this many distinct sessions per machine per field, counted over the day (SPEC §4.1). */
export const MAX_SESSIONS = 3;

export interface Agent extends SeatDetails {
  index: number;
  /** `<machineId>/<session>` */
  id: string;
  machine: number;
  /** Seed tile id, or null when the field had no unsolved tile left at join. */
  seed: number | null;
  joinedAt: number;
  joinedRev: number;
  reward: number;
  solved: number;
}

/** Per-machine counters for the field (health, and the analysis of SPEC §11). */
export interface Machine {
  index: number;
  id: string;
  /** Distinct sessions seated, in join order. */
  sessions: string[];
  agents: number[];
  health: MachineHealth;
  /** Cells accepted (each acceptance, a recommit after retract counts again). */
  accepted: number;
  forced: number;
  guesses: number;
  /** Cells rejected as wrong. */
  wrong: number;
  /** Correct cells refused on guess:"reject" fields. */
  rejectedGuesses: number;
  retractions: number;
  reward: number;
  solved: number;
}

/** A machine as plain data (referee snapshots). */
export type MachineSnapshot = Omit<Machine, "health"> & { health: HealthSnapshot };

/** The seated agents and their machines. */
export class Seats {
  readonly agents: Agent[] = [];
  readonly machines: Machine[] = [];
  private readonly agentById = new Map<string, number>();
  private readonly machineById = new Map<string, number>();

  agent(id: string): Agent | undefined {
    const i = this.agentById.get(id);
    return i === undefined ? undefined : this.agents[i];
  }

  machine(id: string): Machine | undefined {
    const i = this.machineById.get(id);
    return i === undefined ? undefined : this.machines[i];
  }

  machineOrCreate(id: string): Machine {
    let m = this.machine(id);
    if (!m) {
      m = {
        index: this.machines.length,
        id,
        sessions: [],
        agents: [],
        health: new MachineHealth(),
        accepted: 0,
        forced: 0,
        guesses: 0,
        wrong: 0,
        rejectedGuesses: 0,
        retractions: 0,
        reward: 0,
        solved: 0,
      };
      this.machines.push(m);
      this.machineById.set(id, m.index);
    }
    return m;
  }

  seat(machine: Machine, fields: Omit<Agent, "index" | "id" | "machine" | "reward" | "solved">): Agent {
    const agent: Agent = {
      index: this.agents.length,
      id: agentId(machine.id, fields.session),
      machine: machine.index,
      reward: 0,
      solved: 0,
      ...fields,
    };
    this.agents.push(agent);
    this.agentById.set(agent.id, agent.index);
    machine.sessions.push(fields.session);
    machine.agents.push(agent.index);
    return agent;
  }

  static fromSnapshot(s: { agents: Agent[]; machines: MachineSnapshot[] }): Seats {
    const seats = new Seats();
    s.machines.forEach((m, i) => {
      if (m.index !== i) throw new Error(`machine ${i} has index ${m.index}`);
      seats.machines.push({ ...m, sessions: [...m.sessions], agents: [...m.agents], health: MachineHealth.fromSnapshot(m.health) });
      seats.machineById.set(m.id, i);
    });
    s.agents.forEach((a, i) => {
      if (a.index !== i || !seats.machines[a.machine]) throw new Error(`agent ${i} is malformed`);
      seats.agents.push({ ...a, tags: copyTags(a.tags) });
      seats.agentById.set(a.id, i);
    });
    return seats;
  }

  credit(agent: Agent, cells: number): void {
    agent.reward += cells;
    agent.solved += 1;
    const m = this.machines[agent.machine];
    m.reward += cells;
    m.solved += 1;
  }
}

export { agentId };
