import react from "@vitejs/plugin-react";
import { visualizer } from "rollup-plugin-visualizer";
import { defineConfig } from "vite";
import { pureContracts } from "./build/pure-contracts.ts";

// ANALYZE=1 npx vite build (in apps/web): also writes .tmp/web-bundle-stats.json at the repository
// root (every chunk's modules with their rendered, gzip and brotli sizes), which
// apps/web/bench/bundle-report.ts reads to print what a page's scripts are made of.
const isAnalyze = !!process.env.ANALYZE;

export default defineConfig({
  plugins: [
    pureContracts(),
    react(),
    isAnalyze &&
      visualizer({
        filename: "../../.tmp/web-bundle-stats.json",
        template: "raw-data",
        gzipSize: true,
        brotliSize: true,
      }),
  ],
  server: { port: 5173, proxy: { "/api": "http://localhost:8080" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Pages are lazy routes (src/app/routes.tsx), so the bundler already gives the data grid,
        // the charts and the date pickers chunks of their own, loaded by the pages that use them
        // only. The groups set by hand: React and React Router, which every page loads, and TanStack
        // Query, which every signed-in page loads, each in one file whose name changes only when they do (a new app build does not
        // make browsers fetch them again). Groups for MUI, the grid, the charts or the pickers
        // were measured and made pages load more, not less (a group takes along modules that
        // other pages share, e.g. the grid's @mui/x-internals into the monitor form); the frame
        // of the signed-in pages is the one group of app code (below).
        // (Vite 8 bundles with Rolldown: codeSplitting.groups is its manualChunks.)
        codeSplitting: {
          groups: [
            {
              name: "react",
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 30,
            },
            // Apart: the sign-in page does not use it (plain fetch), every signed-in page does.
            {
              name: "query",
              test: /[\\/]node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/,
              priority: 30,
            },
            // The signed-in frame (routes.tsx loadShell: providers, sign-in check, plant and line
            // context, top bar) with everything it imports, in one file: every signed-in page loads
            // all of it, and as some 45 small files it cost a request each (issue #17). A group takes
            // its modules' imports along, so what must not come with the frame is grouped apart
            // first: zod and common.ts's zod helpers (else zod was in every page), and the API
            // client, which the sign-in page uses and none of the rest.
            { name: "zod", test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 20 },
            {
              name: "contracts-common",
              test: /[\\/]packages[\\/]contracts[\\/]src[\\/]common\.ts$/,
              priority: 20,
            },
            { name: "client", test: /[\\/]src[\\/]shared[\\/]api[\\/]client\.ts$/, priority: 20 },
            // The language (decision 0316): the sign-in page and the frame both read it, so it is
            // grouped apart; in the frame's group it took the frame into the sign-in page.
            {
              name: "i18n",
              test: /[\\/](node_modules[\\/]i18next[\\/]|src[\\/]shared[\\/]i18n[\\/](language|twins)\.ts$)/,
              priority: 20,
            },
            {
              name: "shell",
              test: /[\\/]src[\\/]app[\\/](ShellProviders|RequireAuth|AppShell|context[\\/]PlantLineContext)\.tsx$/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
