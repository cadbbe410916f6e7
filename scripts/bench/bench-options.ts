/** The benchmarks' command-line options: `--name value` and bare `--name` flags. */
const argv = process.argv.slice(2);

/** The text after `--name`, or undefined when the option is absent. */
export function textOption(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** The number after `--name`, or `fallback` when the option is absent. */
export function numberOption(name: string, fallback: number): number {
  const text = textOption(name);
  return text === undefined ? fallback : Number(text);
}

/** Whether the bare flag `--name` was given. */
export function flagOption(name: string): boolean {
  return argv.includes(`--${name}`);
}
