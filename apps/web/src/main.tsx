// First: zod's configuration for the browser (no parsers compiled with new Function, which the
// CSP refuses), before any page's chunk builds or runs a schema. The contracts' index imports it
// too, but the bundler keeps only what a page uses from there, and this import uses nothing.
import "@linewatch/contracts/zod-setup";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { prefetchLinksOnIntent } from "./app/prefetch";
import { prefetchRoute, router } from "./app/routes";
import { initLanguage } from "./shared/i18n/language";

// No MUI and no query cache here: they wrap the signed-in frame (routes.tsx, ShellProviders), so
// the sign-in page loads neither.
prefetchLinksOnIntent(prefetchRoute);

const root = document.getElementById("root");
if (!root) throw new Error("no #root element");
// The language's texts first (a German user's chunk of German texts; nothing for English), so the
// first page shows in the user's language.
void initLanguage().then(() =>
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  ),
);
