import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Runs a command line's `main` when its module is the process's entry point (node …/backup.ts, or
 * the compiled .js), not when a test imports it; exits with its code, 1 on an unexpected error.
 */
export function runIfEntryPoint(moduleUrl: string, main: (argv: string[]) => Promise<number>): void {
  const entry = process.argv[1];
  if (!entry) return;
  try {
    if (realpathSync(entry) !== realpathSync(fileURLToPath(moduleUrl))) return;
  } catch {
    return;
  }
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
