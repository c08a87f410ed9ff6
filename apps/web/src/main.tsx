// First: zod's configuration for the browser (no parsers compiled with new Function, which the
// CSP refuses), before any page's chunk builds or runs a schema. The contracts' index imports it
// too, but the bundler keeps only what a page uses from there, and this import uses nothing.
import "@linewatch/contracts/zod-setup";
import { CssBaseline, createTheme, ThemeProvider } from "@mui/material";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { prefetchLinksOnIntent } from "./app/prefetch";
import { prefetchRoute, router } from "./app/routes";
import { ApiError } from "./shared/api/client";
import { SnackbarProvider } from "./shared/ui/SnackbarProvider";

const queryClient = new QueryClient({
  queryCache: new QueryCache(),
  mutationCache: new MutationCache(),
  defaultOptions: {
    queries: {
      // Client errors (401, 403, 404) will not change by asking again.
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const theme = createTheme({ palette: { primary: { main: "#1d4f91" } } });

prefetchLinksOnIntent(prefetchRoute);

const root = document.getElementById("root");
if (!root) throw new Error("no #root element");
createRoot(root).render(
  <StrictMode>
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <SnackbarProvider>
          <RouterProvider router={router} />
        </SnackbarProvider>
      </QueryClientProvider>
    </ThemeProvider>
  </StrictMode>,
);
