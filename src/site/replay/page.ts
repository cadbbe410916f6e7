import { pageHandle } from "../debug";
import { FieldScene } from "../field/scene";
import { createShell } from "../shell";

export async function startReplay(day: string): Promise<void> {
  const shell = createShell(new FieldScene(1));
  pageHandle().view = shell.view;
  shell.setTitle(`Replay ${day}`);
  shell.setStatus("Loading the archive…");
}
