// The repository carries its own design (issue 30 §3): code and docs cite docs/architecture.md,
// docs/conventions.md, docs/monitoring.md and docs/requirements.md, and what they cite is there —
// a quoted heading ("docs/monitoring.md "Alerts"") names a heading of that document (or the start
// of one), a specification section ("requirements.md settings §2.8") a section of requirements.md.
// No citation leads outside the repository to the design documents or the specification's files.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const ROOTS = ["apps", "packages", "scripts", "e2e", "docs", ".ci", "README.md"];
const TEXT = /\.(ts|tsx|js|mjs|cjs|sql|md|py|sh|json)$|^run$/;
const SKIP = new Set(["node_modules", "dist", "test-results", ".ci-results", "coverage"]);
const DESIGN_DOCS = ["architecture", "conventions", "monitoring"] as const;

function files(entry: string): string[] {
  const full = path.join(repo, entry);
  if (!statSync(full, { throwIfNoEntry: false })?.isDirectory())
    return TEXT.test(path.basename(entry)) && existsSync(full) ? [entry] : [];
  return readdirSync(full, { withFileTypes: true }).flatMap((d) => {
    if (SKIP.has(d.name)) return [];
    const rel = path.join(entry, d.name);
    return d.isDirectory() ? files(rel) : TEXT.test(d.name) ? [rel] : [];
  });
}

const sources = ROOTS.flatMap(files)
  .filter((f) => !/package-lock\.json$|stats-vectors\.json$|docs-citations\.test\.ts$/.test(f))
  .map((file) => ({ file, text: readFileSync(path.join(repo, file), "utf8") }));

/** A document's headings, without their #s. */
const headingsOf = (doc: string) =>
  readFileSync(path.join(repo, "docs", doc), "utf8")
    .split("\n")
    .filter((l) => /^#{1,4} /.test(l))
    .map((l) => l.replace(/^#+ /, "").trim());

/** Citations outside the repository: the design documents' and the specification's own files. */
const OUTSIDE =
  /(?:\.\.\/)*shared\/(?:design|spec)\/|\bdesign\/(?:architecture|conventions|monitoring)\.md|\bspec\/(?:monitor-forms|settings)\.md|\bspec (?:monitor-forms|settings) §/g;

/** `docs/<design doc>.md "Heading"` citations in a text: [doc, heading]. */
function quotedHeadings(text: string): [string, string][] {
  const found: [string, string][] = [];
  for (const m of text.matchAll(
    /\b(architecture|conventions|monitoring)\.md`?,?\s+[“"']([^"”'\n]{1,80})["”']/g,
  ))
    found.push([m[1] as string, m[2] as string]);
  return found;
}

/** `requirements.md <document> §<n>` citations in a text, as the section key "<document> §<n>". */
function specSections(text: string): string[] {
  return [...text.matchAll(/requirements\.md`?,? (monitor-forms|settings) §(\d+(?:\.\d+)?)/g)].map(
    (m) => `${m[1]} §${m[2]}`,
  );
}

describe("the repository's own design documents", () => {
  it("reads citations as code writes them", () => {
    expect(quotedHeadings('per docs/monitoring.md "The window", "SVD"')).toEqual([
      ["monitoring", "The window"],
    ]);
    expect(quotedHeadings('(architecture.md, "who may change what")')).toEqual([
      ["architecture", "who may change what"],
    ]);
    expect(specSections("(requirements.md settings §2.8, §7) and requirements.md monitor-forms §5")).toEqual([
      "settings §2.8",
      "monitor-forms §5",
    ]);
    expect("see ../shared/design/monitoring.md and spec monitor-forms §4".match(OUTSIDE)).toHaveLength(2);
    expect('import { x } from "../../shared/format"'.match(OUTSIDE)).toBeNull();
  });

  it("no file cites the design documents or the specification outside the repository", () => {
    const outside = sources.flatMap(({ file, text }) =>
      [...text.matchAll(OUTSIDE)].map((m) => `${file}: ${m[0]}`),
    );
    expect(outside).toEqual([]);
  });

  it("every quoted heading of architecture.md, conventions.md and monitoring.md is a heading there", () => {
    const headings = Object.fromEntries(DESIGN_DOCS.map((d) => [d, headingsOf(`${d}.md`)]));
    const missing = sources.flatMap(({ file, text }) =>
      quotedHeadings(text)
        .filter(([doc, quoted]) => {
          const q = quoted.toLowerCase();
          return !(headings[doc] ?? []).some(
            (h) => h.toLowerCase().startsWith(q) || h.toLowerCase().includes(`"${q}"`),
          );
        })
        .map(([doc, quoted]) => `${file}: ${doc}.md "${quoted}"`),
    );
    expect(missing).toEqual([]);
  });

  it("every cited section of the specification is a section of requirements.md", () => {
    const sections = new Set(
      headingsOf("requirements.md").flatMap((h) => {
        const m = h.match(/^(monitor-forms|settings) §(\d+(?:\.\d+)?)/);
        return m ? [`${m[1]} §${m[2]}`] : [];
      }),
    );
    expect(sections.size).toBeGreaterThan(25);
    const missing = sources.flatMap(({ file, text }) =>
      specSections(text)
        .filter((s) => !sections.has(s))
        .map((s) => `${file}: ${s}`),
    );
    expect(missing).toEqual([]);
  });
});
