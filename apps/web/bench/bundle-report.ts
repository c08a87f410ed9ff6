// What a page's scripts are made of: the modules (and the packages) in the script files a page loads
// before it is usable, largest first by gzip size (each module compressed on its own, so the sums
// are a little above the files' real compressed sizes, which compress across modules).
//
//   (cd apps/web && ANALYZE=1 npx vite build)         # .tmp/web-bundle-stats.json
//   BENCH_SCRIPTS=.tmp/web-pages.json npm run bench:web  # the files each page loaded
//   node --import tsx apps/web/bench/bundle-report.ts [page name substring] [top N]
//
// Build the two from the same sources (the file names carry content hashes: a file the stats do not
// know is reported as such). Without BENCH_SCRIPTS' file it reports every chunk of the build.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
type Part = { renderedLength: number; gzipLength: number; brotliLength: number; metaUid: string };
type Meta = { id: string; moduleParts: Record<string, string> };
type Stats = { nodeParts: Record<string, Part>; nodeMetas: Record<string, Meta> };

const stats = JSON.parse(readFileSync(path.join(root, ".tmp/web-bundle-stats.json"), "utf8")) as Stats;
const pagesFile = path.join(root, ".tmp/web-pages.json");
const loaded: Record<string, [string, number][]> | null = existsSync(pagesFile)
  ? JSON.parse(readFileSync(pagesFile, "utf8"))
  : null;
const pages: Record<string, string[]> = loaded
  ? Object.fromEntries(
      Object.entries(loaded).map(([page, rs]) => [
        page,
        rs
          .filter(([p]) => p.startsWith("/assets/") && p.endsWith(".js"))
          .map(([p]) => p.slice("/assets/".length)),
      ]),
    )
  : {
      "every chunk": [...new Set(Object.values(stats.nodeMetas).flatMap((m) => Object.keys(m.moduleParts)))],
    };
const [filter = "", topArg = "10"] = process.argv.slice(2);
const top = Number(topArg);

/** node_modules/<pkg> (scoped included), else the path inside the repository. */
function packageOf(id: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (m?.[1]) return m[1];
  return id.replace(`${root}/`, "").split("/").slice(0, 3).join("/");
}
const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

for (const [page, files] of Object.entries(pages)) {
  if (!page.toLowerCase().includes(filter.toLowerCase())) continue;
  const modules: { id: string; file: string; part: Part }[] = [];
  const known = new Set<string>();
  for (const meta of Object.values(stats.nodeMetas))
    for (const [file, uid] of Object.entries(meta.moduleParts)) {
      const f = file.replace(/^assets\//, "");
      if (!files.includes(f)) continue;
      known.add(f);
      const part = stats.nodeParts[uid];
      if (part) modules.push({ id: meta.id.replace(`${root}/`, ""), file: f, part });
    }
  const unknown = files.filter((f) => !known.has(f));
  const total = modules.reduce((s, m) => s + m.part.gzipLength, 0);
  console.log(`\n${page}: ${files.length} script files, modules ${kB(total)} gzip (summed one by one)`);
  const rest = (loaded?.[page] ?? []).filter(([p]) => !(p.startsWith("/assets/") && p.endsWith(".js")));
  if (loaded) {
    const js = (loaded[page] ?? []).filter(([p]) => !rest.some(([q]) => q === p));
    console.log(
      `  as loaded (gzip only): scripts ${kB(js.reduce((s, [, n]) => s + n, 0))} in ${js.length} requests; ` +
        `the rest ${kB(rest.reduce((s, [, n]) => s + n, 0))}: ${rest.map(([p, n]) => `${p} ${kB(n)}`).join(", ")}`,
    );
  }
  if (unknown.length) console.log(`  not in the stats (another build?): ${unknown.join(", ")}`);
  const byPackage = new Map<string, number>();
  for (const m of modules)
    byPackage.set(packageOf(m.id), (byPackage.get(packageOf(m.id)) ?? 0) + m.part.gzipLength);
  console.log("  packages:");
  for (const [p, n] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`    ${kB(n).padStart(9)}  ${p}`);
  console.log("  modules:");
  for (const m of modules.sort((a, b) => b.part.gzipLength - a.part.gzipLength).slice(0, top))
    console.log(`    ${kB(m.part.gzipLength).padStart(9)}  ${m.id}  (${m.file})`);
}
