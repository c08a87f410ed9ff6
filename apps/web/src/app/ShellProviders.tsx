import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { MuiProviders } from "../shared/ui/MuiProviders";
import { createQueryClient } from "./queryClient";

/**
 * What the signed-in frame's pages need around them: the query cache and MUI's theme and
 * snackbars. They come with the frame's chunk, so the sign-in page loads neither TanStack Query
 * nor MUI. The cache lives as long as the frame: signing out leaves the frame (to /login) and
 * drops it; signing in starts a new one.
 */
export function ShellProviders({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <MuiProviders>{children}</MuiProviders>
    </QueryClientProvider>
  );
}
