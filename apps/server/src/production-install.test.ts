/**
 * The production install (README "Production installation"): `npm ci --omit=dev` leaves out every
 * devDependency, and `npm run start:prod` runs the compiled server with plain node. Two promises
 * checked here without a build or an install, so CI pays milliseconds, not a clean clone:
 *
 * 1. Every package the server can load at run time is a `dependencies` entry of the workspace
 *    whose file imports it. The walk starts at the production entry points (main.ts,
 *    cli/user-create.ts), follows relative imports, the workspaces' packages through their
 *    exports, and the threads' files (`new URL("./x.js", import.meta.url)`), and collects every
 *    import that survives compilation (`import type` / `export type` are erased; everything else,
 *    dynamic `import("…")` included, is loaded). Each workspace export the server reaches must
 *    name its compiled file under the "linewatch-dist" condition.
 * 2. `engines` tells the truth: every package in package-lock.json, development tools included
 *    (`npm install` installs them), accepts every Node version the root's `engines` allows.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const DIST_CONDITION = "linewatch-dist";

/** The files `npm run start:prod` and `npm run user:create:prod` start from. */
const ENTRY_POINTS = [
  "apps/server/src/main.ts",
  "apps/server/src/cli/user-create.ts",
  "apps/server/src/cli/backup.ts",
  "apps/server/src/cli/restore.ts",
];

/**
 * Imports the compiled build never makes, by file: the statistics thread's entry registers tsx
 * only when no compiled stats.thread.js lies beside it, which is never the case in dist/
 * (scripts/build.mjs compiles stats.thread.ts there).
 */
const SOURCE_ONLY_IMPORTS: Record<string, string[]> = {
  "apps/server/src/modules/evaluation/stats.thread-entry.js": ["tsx/esm/api"],
};

type PackageJson = {
  name?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  workspaces?: string[];
  engines?: { node?: string };
};

const readJson = (file: string): PackageJson => JSON.parse(readFileSync(file, "utf8"));

/** The specifiers a file loads at run time, and the thread files it starts. */
function runtimeImports(file: string): { specifiers: string[]; threadFiles: string[] } {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const threadFiles: string[] = [];
  // Only files that hold a dynamic import or a thread URL are walked past their top level.
  const deep = /\bimport\s*\(|new URL\(/.test(text);
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.importClause?.isTypeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!node.isTypeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "URL" &&
      node.arguments?.[0] &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      node.arguments[1]?.getText(source) === "import.meta.url" &&
      /\.[cm]?js$/.test(node.arguments[0].text)
    ) {
      threadFiles.push(node.arguments[0].text);
    }
    if (deep) ts.forEachChild(node, visit);
  };
  for (const statement of source.statements) visit(statement);
  return { specifiers, threadFiles };
}

/** A relative specifier's source file: `./x.js` is x.ts when there is one (tsc compiles it to x.js). */
function resolveRelative(from: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(from), specifier);
  const candidates = /\.[cm]?js$/.test(target)
    ? [target.replace(/\.([cm]?)js$/, ".$1ts"), target]
    : [target, `${target}.ts`, path.join(target, "index.ts")];
  return candidates.find((c) => existsSync(c));
}

/** The package name of a bare specifier: `@scope/name/sub` → `@scope/name`. */
const packageName = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

function nearestPackageJson(file: string, root: string): string {
  for (let dir = path.dirname(file); dir.startsWith(root); dir = path.dirname(dir)) {
    const candidate = path.join(dir, "package.json");
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`no package.json above ${file}`);
}

/**
 * Walks the runtime import graph from `entries` (paths relative to `root`, a repository with npm
 * workspaces) and returns what a production install would miss, one line a problem.
 */
function findProductionImportProblems(
  root: string,
  entries: string[],
  sourceOnly: Record<string, string[]> = {},
): string[] {
  const rootPkg = readJson(path.join(root, "package.json"));
  const workspaces = new Map<string, string>();
  for (const ws of rootPkg.workspaces ?? []) {
    const pkgFile = path.join(root, ws, "package.json");
    if (existsSync(pkgFile)) workspaces.set(readJson(pkgFile).name ?? ws, path.join(root, ws));
  }

  const problems: string[] = [];
  const seen = new Set<string>();
  const queue = entries.map((e) => path.join(root, e));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const rel = path.relative(root, file);
    const pkgFile = nearestPackageJson(file, root);
    const pkg = readJson(pkgFile);
    const where = `${rel} (${path.relative(root, pkgFile)})`;
    const { specifiers, threadFiles } = runtimeImports(file);

    for (const specifier of threadFiles) {
      const target = resolveRelative(file, specifier);
      if (target) queue.push(target);
      else problems.push(`${where}: thread file ${specifier} not found`);
    }
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) {
        const target = resolveRelative(file, specifier);
        if (target) queue.push(target);
        else problems.push(`${where}: cannot resolve ${specifier}`);
        continue;
      }
      if (isBuiltin(specifier)) continue;
      if (sourceOnly[rel]?.includes(specifier)) continue;
      const name = packageName(specifier);
      if (!pkg.dependencies?.[name]) {
        const kind = pkg.devDependencies?.[name] ? "a devDependency" : "not declared";
        problems.push(`${where}: imports ${specifier}, but ${name} is ${kind} (not in dependencies)`);
        continue;
      }
      const wsDir = workspaces.get(name);
      if (!wsDir) continue;
      // A workspace package: its export must name a compiled file for plain node, and its source
      // (what the build compiles) is walked on.
      const subpath = `.${specifier.slice(name.length)}`;
      const target = readJson(path.join(wsDir, "package.json")).exports?.[subpath];
      if (typeof target !== "object" || !target[DIST_CONDITION] || !target.default) {
        problems.push(
          `${where}: ${specifier} has no "${DIST_CONDITION}" and "default" export in ${path.relative(root, wsDir)}/package.json`,
        );
        continue;
      }
      const expected = target.default.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, ".js");
      if (target[DIST_CONDITION] !== expected) {
        problems.push(
          `${where}: ${specifier} "${DIST_CONDITION}" is ${target[DIST_CONDITION]}, not ${expected}`,
        );
      }
      queue.push(path.join(wsDir, target.default));
    }
  }
  return problems;
}

describe("production install", () => {
  // About 250 files parsed: under a second on a quiet machine, more beside other work.
  it("loads at run time only packages the importing workspace lists in dependencies", {
    timeout: 30_000,
  }, () => {
    expect(findProductionImportProblems(repo, ENTRY_POINTS, SOURCE_ONLY_IMPORTS)).toEqual([]);
  });

  it("reports a devDependency imported at run time, through a thread file and a workspace package", () => {
    const root = mkdtempSync(path.join(tmpdir(), "lw-prod-imports-"));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      };
      write("package.json", JSON.stringify({ workspaces: ["server", "lib"], devDependencies: { tsx: "*" } }));
      write(
        "server/package.json",
        JSON.stringify({
          name: "server",
          dependencies: { lib: "*", pino: "*" },
          devDependencies: { vitest: "*" },
        }),
      );
      write(
        "lib/package.json",
        JSON.stringify({
          name: "lib",
          exports: {
            ".": { [DIST_CONDITION]: "./dist/index.js", default: "./src/index.ts" },
            "./raw": "./src/raw.ts",
          },
        }),
      );
      write(
        "server/src/main.ts",
        [
          'import type { Foo } from "vitest";',
          'import pino from "pino";',
          'import { lib } from "lib";',
          'import "lib/raw";',
          'const thread = new URL("./thread.js", import.meta.url);',
        ].join("\n"),
      );
      write("server/src/thread.js", 'const { expect } = await import("vitest");');
      write("lib/src/index.ts", 'export { run } from "tsx";\nexport type { T } from "typescript";');
      write("lib/src/raw.ts", "export {};");

      expect(findProductionImportProblems(root, ["server/src/main.ts"]).sort()).toEqual([
        "lib/src/index.ts (lib/package.json): imports tsx, but tsx is not declared (not in dependencies)",
        'server/src/main.ts (server/package.json): lib/raw has no "linewatch-dist" and "default" export in lib/package.json',
        "server/src/thread.js (server/package.json): imports vitest, but vitest is a devDependency (not in dependencies)",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("declares in engines only Node versions every installed package accepts", () => {
    const range = readJson(path.join(repo, "package.json")).engines?.node;
    expect(range).toBeDefined();
    const lock = JSON.parse(readFileSync(path.join(repo, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refusing: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      const accepts = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!location || !accepts) continue;
      if (!semver.subset(range as string, accepts, { includePrerelease: false })) {
        refusing.push(`${location}@${entry.version} wants node ${accepts}`);
      }
    }
    expect(refusing).toEqual([]);
  });
});
