/** Where a CLI command prints: lines for people (`out`), notes beside them (`err`), and files written whole (`write`). */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
  write(chunk: string | Uint8Array): void;
}

/** The process's own stdout and stderr, as `npm run cli` prints. */
export const processOutput: CliOutput = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  write: (chunk) => void process.stdout.write(chunk),
};
