import { type Plugin, parseSync } from "vite";

/**
 * Lets the bundler drop the contracts' values a page does not use (issue #17: zod and the
 * contracts' schemas were in every signed-in page). A contract module holds zod schemas beside the
 * constants and functions the web app imports; a schema is built by calls (`z.object(...)`), which
 * the bundler must assume have side effects, so importing one message from a module kept all its
 * schemas, and zod with them. This wraps the value of each top-level `const` that is computed
 * (a call, an object or array literal, ...) in an immediately called arrow function annotated
 * `@__PURE__`: it runs at the same place as before, and is dropped when nothing uses its result.
 * Statements that are not declarations are left as they are.
 */
export function pureContracts(): Plugin {
  return {
    name: "linewatch:pure-contracts",
    enforce: "pre",
    transform: {
      filter: { id: /[\\/]packages[\\/]contracts[\\/]src[\\/][^\\/]+\.ts$/ },
      handler(code, id) {
        if (/\.(test|fixtures)\.ts$/.test(id)) return null;
        const { program, errors } = parseSync(id, code, { lang: "ts", sourceType: "module" });
        if (errors.length > 0) return null;
        const edits: { start: number; end: number }[] = [];
        for (const stmt of program.body) {
          const decl = stmt.type === "ExportNamedDeclaration" ? stmt.declaration : stmt;
          if (decl?.type !== "VariableDeclaration" || decl.kind !== "const") continue;
          for (const d of decl.declarations) {
            if (d.init && COMPUTED.has(d.init.type)) edits.push({ start: d.init.start, end: d.init.end });
          }
        }
        if (edits.length === 0) return null;
        let out = code;
        for (const { start, end } of edits.sort((a, b) => b.start - a.start)) {
          out = `${out.slice(0, start)}/* @__PURE__ */ (() => (${out.slice(start, end)}))()${out.slice(end)}`;
        }
        return { code: out, map: null };
      },
    },
  };
}

/** Initialisers worth wrapping: those whose evaluation the bundler cannot prove free of effects. */
const COMPUTED = new Set([
  "CallExpression",
  "NewExpression",
  "ObjectExpression",
  "ArrayExpression",
  "TSAsExpression",
  "TSSatisfiesExpression",
  "MemberExpression",
  "TaggedTemplateExpression",
  "ConditionalExpression",
  "LogicalExpression",
]);
